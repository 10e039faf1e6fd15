// CNetlink includes <sys/socket.h>: in whole-module builds its SOCK_* hide Glibc's, so take them from it.
import CNetlink
import IMHTTP
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 GET over a blocking socket, within a deadline; https through `BlockingChannel`.
/// Blocks the caller.
///
/// The token fetcher runs on a thread of its own, off the event loops, so the token URL uses
/// this small client there; IMHTTP writes the request and reads the answer.
enum BlockingHTTPClient {
    /// The body of a 2xx answer to GET `url`, or why there is none; `tls` for an https URL.
    static func get(
        _ url: HTTPURL, tls: TLSConnectSettings? = nil, deadline: ContinuousClock.Instant, limit: Int
    ) -> Result<[UInt8], SourceFailure> {
        let fd: Int32
        switch connect(host: url.host, port: url.port, deadline: deadline) {
        case .success(let socket): fd = socket
        case .failure(let failure): return .failure(failure)
        }
        defer { close(fd) }
        let channel: BlockingChannel
        do {
            channel = try BlockingChannel(fd: fd, tls: tls, deadline: deadline)
        } catch {
            return .failure(error)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: url.hostHeader)
        headers.add(name: "Accept", value: "application/json, text/plain")
        headers.add(name: "User-Agent", value: "imsh")
        headers.add(name: "Connection", value: "close")
        let request = HTTPRequest(method: "GET", target: url.requestTarget, headers: headers).serialized()
        if let failure = channel.send(request, deadline: deadline) { return .failure(SourceFailure(failure)) }
        var limits = HTTPLimits()
        limits.maxBodyBytes = limit
        var parser = HTTPResponseParser(limits: limits)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            switch channel.receive(into: &buffer, deadline: deadline) {
            case .success(let received): count = received
            case .failure(let failure): return .failure(failure)
            }
            do {
                let response: HTTPResponse?
                if count > 0 {
                    parser.append(buffer[..<count])
                    response = try parser.nextResponse()
                } else {
                    response = try parser.finish()
                    if response == nil { return .failure(SourceFailure("the server closed the connection without answering")) }
                }
                guard let response else { continue }
                guard (200..<300).contains(response.status.rawValue) else {
                    return .failure(SourceFailure("the server answered \(response.status)"))
                }
                return .success(response.body)
            } catch {
                return .failure(SourceFailure("invalid HTTP answer: \(error)"))
            }
        }
    }

    /// A connected non-blocking socket to the first address of `host` that answers.
    private static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant) -> Result<Int32, SourceFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(SourceFailure("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor?.pointee {
            cursor = entry.ai_next
            let fd = socket(entry.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = "socket: \(BlockingIO.reason())"
                continue
            }
            if Glibc.connect(fd, entry.ai_addr, entry.ai_addrlen) == 0 { return .success(fd) }
            guard errno == EINPROGRESS else {
                lastError = "connect to \(host):\(port): \(BlockingIO.reason())"
                close(fd)
                continue
            }
            guard !BlockingIO.wait([fd], for: Int16(POLLOUT), until: deadline).isEmpty else {
                close(fd)
                return .failure(SourceFailure("connect to \(host):\(port) timed out"))
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return .success(fd) }
            lastError = "connect to \(host):\(port): \(BlockingIO.reason(code))"
            close(fd)
        }
        return .failure(SourceFailure(lastError))
    }
}
