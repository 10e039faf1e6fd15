/// The client side of a SOCKS5 CONNECT exchange (RFC 1928, with RFC 1929 credentials).
///
/// Runs on a connected, non-blocking socket to the proxy, on the loop thread. It reads
/// exactly the bytes of each reply, never more, so whatever follows the final reply belongs
/// to the tunnelled connection.
final class SOCKS5Handshake {
    private enum Step {
        case methodSelection
        case authentication
        case connectReply
    }

    private let proxy: SOCKS5Proxy
    private let target: String
    private var step = Step.methodSelection
    private var outgoing: [UInt8]
    private var sent = 0
    private var incoming: [UInt8] = []
    private let connectRequest: [UInt8]

    init(proxy: SOCKS5Proxy, targetHost: String, targetPort: UInt16) throws(TransportError) {
        self.proxy = proxy
        self.target = TransportError.endpoint(targetHost, targetPort)
        var methods: [UInt8] = [0x00]
        if let credentials = proxy.credentials {
            guard (1...255).contains(credentials.username.utf8.count), (1...255).contains(credentials.password.utf8.count)
            else { throw .invalidArgument("SOCKS5 user name and password must each be 1 to 255 bytes long") }
            methods.append(0x02)
        }
        outgoing = [0x05, UInt8(methods.count)] + methods
        var request: [UInt8] = [0x05, 0x01, 0x00]
        if let address = SocketAddress(ipAddress: targetHost, port: targetPort) {
            request.append(address.family == .ipv4 ? 0x01 : 0x04)
            request += address.bytes
        } else {
            // A name goes to the proxy as is: it resolves it, which also works where we cannot.
            let name = Array(targetHost.utf8)
            guard (1...255).contains(name.count) else {
                throw .invalidArgument("host name '\(targetHost)' is too long for SOCKS5 (at most 255 bytes)")
            }
            request += [0x03, UInt8(name.count)] + name
        }
        request += [UInt8(targetPort >> 8), UInt8(targetPort & 0xFF)]
        connectRequest = request
    }

    /// Moves the exchange as far as the socket allows; true once the tunnel is open.
    func advance(_ stream: any ByteStream) throws(TransportError) -> Bool {
        while true {
            while sent < outgoing.count {
                let result = try io { () throws(TransportError) -> IOResult in
                    try outgoing.withUnsafeBytes { bytes in
                        Result { () throws(TransportError) in
                            try stream.write(UnsafeRawBufferPointer(rebasing: bytes[sent...]))
                        }
                    }.get()
                }
                guard case let .processed(count) = result else { return false }
                sent += count
            }
            let needed = try expectedLength()
            if incoming.count < needed {
                guard try receive(needed - incoming.count, from: stream) else { return false }
                continue
            }
            if try handleReply() { return true }
        }
    }

    /// Reads up to `count` bytes; false when the socket has none now.
    private func receive(_ count: Int, from stream: any ByteStream) throws(TransportError) -> Bool {
        var buffer = [UInt8](repeating: 0, count: count)
        let result = try io { () throws(TransportError) -> IOResult in
            try buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(TransportError) in try stream.read(into: bytes) }
            }.get()
        }
        switch result {
        case let .processed(read):
            incoming += buffer[..<read]
            return true
        case .wouldBlock:
            return false
        case .endOfStream:
            throw violation("it closed the connection before answering")
        }
    }

    /// The length of the reply being read, as far as the bytes so far tell.
    private func expectedLength() throws(TransportError) -> Int {
        switch step {
        case .methodSelection, .authentication:
            return 2
        case .connectReply:
            // A failure reply is final whatever follows; some proxies send only two bytes.
            if incoming.count >= 2 && incoming[1] != SOCKS5Reply.succeeded.rawValue { return incoming.count }
            guard incoming.count >= 5 else { return 5 }
            switch incoming[3] {
            case 0x01: return 4 + 4 + 2
            case 0x04: return 4 + 16 + 2
            case 0x03: return 4 + 1 + Int(incoming[4]) + 2
            case let type: throw violation("its reply has unknown address type \(type)")
            }
        }
    }

    /// Acts on a complete reply; true when the tunnel is open.
    private func handleReply() throws(TransportError) -> Bool {
        let reply = incoming
        incoming = []
        switch step {
        case .methodSelection:
            guard reply[0] == 0x05 else { throw violation("it answered with version \(reply[0]), not 5") }
            switch reply[1] {
            case 0x00:
                send(connectRequest, next: .connectReply)
            case 0x02 where proxy.credentials != nil:
                let credentials = proxy.credentials!
                let username = Array(credentials.username.utf8)
                let password = Array(credentials.password.utf8)
                let request = [0x01, UInt8(username.count)] + username + [UInt8(password.count)] + password
                send(request, next: .authentication)
            case 0xFF:
                throw .proxyNoAcceptableMethod(
                    proxy: proxy.host, port: proxy.port, offeredCredentials: proxy.credentials != nil)
            case let method:
                throw violation("it chose authentication method \(method), which we did not offer")
            }
        case .authentication:
            guard reply[1] == 0x00 else { throw .proxyAuthenticationFailed(proxy: proxy.host, port: proxy.port) }
            send(connectRequest, next: .connectReply)
        case .connectReply:
            guard reply[0] == 0x05 else { throw violation("it answered with version \(reply[0]), not 5") }
            let code = SOCKS5Reply(rawValue: reply[1])
            guard code == .succeeded else {
                throw .proxyRefused(proxy: proxy.host, port: proxy.port, target: target, reply: code)
            }
            return true
        }
        return false
    }

    private func send(_ message: [UInt8], next: Step) {
        outgoing = message
        sent = 0
        step = next
    }

    private func violation(_ detail: String) -> TransportError {
        .proxyProtocolViolation(proxy: proxy.host, port: proxy.port, detail: detail)
    }

    /// Socket failures during negotiation mean the proxy went away.
    private func io(_ body: () throws(TransportError) -> IOResult) throws(TransportError) -> IOResult {
        do {
            return try body()
        } catch {
            throw .proxyUnreachable(proxy: proxy.host, port: proxy.port, reason: error)
        }
    }
}
