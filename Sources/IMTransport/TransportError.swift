#if canImport(Glibc)
import Glibc
#endif
import MQTT

/// Why a transport operation failed, worded so that a person knows what to check next.
///
/// Connect failures name the host and port that failed; the proxy cases name the proxy,
/// so that the engine can tell "the proxy is unusable" (`isProxyFailure`) from
/// "the server is unreachable".
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection was established within the connect timeout.
    case connectTimedOut(host: String, port: UInt16, after: Duration)
    /// The host answered that nothing listens on the port.
    case connectionRefused(host: String, port: UInt16)
    /// Name resolution failed; `reason` is the resolver's own message.
    case hostNotFound(name: String, reason: String)
    /// No route to the host or its network (the network may be down).
    case networkUnreachable(host: String, port: UInt16, SystemError)
    /// Any other failure of `connect`.
    case connectFailed(host: String, port: UInt16, SystemError)
    /// Another socket is already bound to the address.
    case addressInUse(host: String, port: UInt16)
    /// A caller passed something the transport cannot use; the text says what.
    case invalidArgument(String)
    /// The connection is closed (or closing), so it takes no more frames.
    case closed
    /// The peer closed the connection while we still expected data.
    case closedByPeer
    /// The peer reset the connection (ECONNRESET or EPIPE).
    case connectionReset
    /// The peer sent bytes that cannot be cut into MQTT packets.
    case framing(FrameError)
    /// More than `limit` bytes waited to be sent because the peer did not read.
    case outboundBufferOverflow(limit: Int)
    /// The SOCKS5 proxy could not be reached; `reason` is the underlying failure.
    indirect case proxyUnreachable(proxy: String, port: UInt16, reason: TransportError)
    /// The SOCKS5 proxy answered the CONNECT request with a failure reply.
    case proxyRefused(proxy: String, port: UInt16, target: String, reply: SOCKS5Reply)
    /// The SOCKS5 proxy accepts none of the authentication methods we offered.
    case proxyNoAcceptableMethod(proxy: String, port: UInt16, offeredCredentials: Bool)
    /// The SOCKS5 proxy rejected the user name and password (RFC 1929).
    case proxyAuthenticationFailed(proxy: String, port: UInt16)
    /// The SOCKS5 proxy sent something the protocol does not allow.
    case proxyProtocolViolation(proxy: String, port: UInt16, detail: String)
    /// The caller cancelled the operation (for example, its task was cancelled).
    case cancelled
    /// The event loop has shut down, so nothing more runs on it.
    case eventLoopStopped
    /// A system call failed in a way none of the cases above describes.
    case system(SystemError)
    /// TLS could not be set up (files, verification, pin) or broke; see `TLSFailure.isPermanent`.
    case tls(TLSFailure)
    /// The WebSocket upgrade failed, or the WebSocket closed (a close frame, a protocol error).
    case webSocket(WebSocketFailure)

    /// Whether the failure lies with the SOCKS5 proxy rather than the server behind it.
    public var isProxyFailure: Bool {
        switch self {
        case .proxyUnreachable, .proxyRefused, .proxyNoAcceptableMethod, .proxyAuthenticationFailed,
            .proxyProtocolViolation:
            return true
        default:
            return false
        }
    }

    public var description: String { text.description }

    /// What went wrong and, apart from it, what to check.
    public var text: FailureText {
        switch self {
        case let .connectTimedOut(host, port, after):
            return FailureText(
                "could not connect to \(Self.endpoint(host, port)) within \(Self.text(after))",
                hint: "the server did not answer: is it overloaded, or is a firewall dropping packets?")
        case let .connectionRefused(host, port):
            return FailureText(
                "\(Self.endpoint(host, port)) refused the connection",
                hint: "nothing listens on that port: is the server running, and is the port right?")
        case let .hostNotFound(name, reason):
            return FailureText("cannot resolve host name '\(name)': \(reason)", hint: "check the spelling and the DNS settings")
        case let .networkUnreachable(host, port, error):
            return FailureText("cannot reach \(Self.endpoint(host, port)): \(error.reason)", hint: "is the network up?")
        case let .connectFailed(host, port, error):
            return FailureText("cannot connect to \(Self.endpoint(host, port)): \(error.reason) (errno \(error.code))")
        case let .addressInUse(host, port):
            return FailureText(
                "cannot listen on \(Self.endpoint(host, port)): the address is already in use",
                hint: "stop the other server, or use port 0 for a free port")
        case let .invalidArgument(detail):
            return FailureText(detail)
        case .closed:
            return FailureText("the connection is closed")
        case .closedByPeer:
            return FailureText("the peer closed the connection")
        case .connectionReset:
            return FailureText("the peer reset the connection")
        case let .framing(error):
            return FailureText("the peer sent bytes that are not MQTT packets (\(error)); the connection was closed")
        case let .outboundBufferOverflow(limit):
            return FailureText("the peer did not read: more than \(limit) bytes waited to be sent, so the connection was closed")
        case let .proxyUnreachable(proxy, port, reason):
            let inner = reason.text
            return FailureText("SOCKS5 proxy \(Self.endpoint(proxy, port)) is unreachable: \(inner.reason)", hint: inner.hint)
        case let .proxyRefused(proxy, port, target, reply):
            return FailureText("SOCKS5 proxy \(Self.endpoint(proxy, port)) refused to connect to \(target): \(reply)")
        case let .proxyNoAcceptableMethod(proxy, port, offeredCredentials):
            let offered = offeredCredentials ? "no authentication or user name and password" : "no authentication"
            return FailureText(
                "SOCKS5 proxy \(Self.endpoint(proxy, port)) accepts none of the authentication methods offered: \(offered)",
                hint: offeredCredentials ? nil : "it may need a user name and password")
        case let .proxyAuthenticationFailed(proxy, port):
            return FailureText("SOCKS5 proxy \(Self.endpoint(proxy, port)) rejected the user name and password")
        case let .proxyProtocolViolation(proxy, port, detail):
            return FailureText(
                "SOCKS5 proxy \(Self.endpoint(proxy, port)) broke the protocol: \(detail)", hint: "is it really a SOCKS5 proxy?")
        case .cancelled:
            return FailureText("the operation was cancelled")
        case .eventLoopStopped:
            return FailureText("the event loop has shut down, so no more I/O runs on it")
        case let .system(error):
            return FailureText(error.description)
        case let .tls(failure):
            return FailureText(failure.description)
        case let .webSocket(failure):
            return FailureText(failure.description)
        }
    }

    /// `host:port`, with brackets around an IPv6 address.
    public static func endpoint(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// A duration as a person reads it: "3 s" or "250 ms".
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

extension TransportError {
    /// The error for a failed `connect` to `host:port` that left `code` in errno.
    static func connectFailure(host: String, port: UInt16, code: Int32) -> TransportError {
        switch code {
        case ECONNREFUSED:
            return .connectionRefused(host: host, port: port)
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EHOSTDOWN:
            return .networkUnreachable(host: host, port: port, SystemError("connect", code: code))
        default:
            return .connectFailed(host: host, port: port, SystemError("connect", code: code))
        }
    }

    /// The error for a failed read or write on an established connection.
    static func ioFailure(_ call: String, code: Int32) -> TransportError {
        switch code {
        case ECONNRESET, EPIPE:
            return .connectionReset
        default:
            return .system(SystemError(call, code: code))
        }
    }
}
