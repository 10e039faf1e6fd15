import IMHTTP
import IMTransport
import Synchronization

/// The one HTTP/1.1 client: a request and its response over a fresh connection (plain or TLS,
/// non-blocking in an event loop), within a time limit.
///
/// The shell's API commands, the engine's token URL and the bench all use it. IMHTTP writes the
/// request and parses the answer; the connection uses raw framing.
public enum HTTPClient {
    /// Sends `request` to the URL's host and port (TLS for https, verified with `tls` or the
    /// system's trust store and the URL's host) and returns the first whole response.
    public static func perform(
        _ request: HTTPRequest, to url: HTTPURL, tls: TLSClientConfiguration? = nil, on loop: EventLoop,
        timeout: Duration, bodyLimit: Int? = nil
    ) async throws(HTTPClientError) -> HTTPResponse {
        let settings = try url.isSecure ? secureSettings(url, tls ?? TLSClientConfiguration()) : nil
        let options = ConnectOptions(timeout: timeout, connection: ConnectionOptions(framing: .raw), tls: settings)
        let connection: Connection
        do {
            connection = try await Connection.connect(to: url.host, port: url.port, options: options, on: loop)
        } catch .tls(let failure) where failure.isPermanent {
            throw .untrusted("\(TransportError.tls(failure))")
        } catch {
            // The reason alone: each caller says what to check in its own terms (a profile's api, a token URL).
            throw .unreachable(error.text.reason)
        }
        let timedOut = Mutex(false)
        let watchdog = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            timedOut.withLock { $0 = true }
            connection.close(.abortive)
        }
        defer {
            watchdog.cancel()
            connection.close(.abortive)
        }
        let frames = connection.frames()
        do {
            try await connection.write(request.serialized())
        } catch {
            throw timedOut.withLock { $0 } ? late(timeout) : .unreachable("cannot send: \(error)")
        }
        var limits = HTTPLimits()
        if let bodyLimit { limits.maxBodyBytes = bodyLimit }
        var parser = HTTPResponseParser(limits: limits)
        var iterator = frames.makeAsyncIterator()
        while true {
            do {
                if let response = try parser.nextResponse() { return response }
            } catch {
                throw .badAnswer("invalid HTTP answer: \(error)")
            }
            switch await nextChunk(&iterator) {
            case .success(let chunk?):
                parser.append(chunk)
            case .success(nil):
                if timedOut.withLock({ $0 }) { throw late(timeout) }
                let response: HTTPResponse?
                do {
                    response = try parser.finish()
                } catch {
                    throw .badAnswer("invalid HTTP answer: \(error)")
                }
                guard let response else { throw .unreachable("the server closed the connection without answering") }
                return response
            case .failure(let error):
                throw timedOut.withLock { $0 } ? late(timeout) : .unreachable("\(error)")
            }
        }
    }

    /// The body of a 2xx answer to GET `url`; a refusal carries the status and body.
    public static func get(
        _ url: HTTPURL, tls: TLSClientConfiguration? = nil, on loop: EventLoop, timeout: Duration, bodyLimit: Int
    ) async throws(HTTPClientError) -> [UInt8] {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: url.hostHeader)
        headers.add(name: "Accept", value: "application/json, text/plain")
        headers.add(name: "User-Agent", value: "imsh")
        headers.add(name: "Connection", value: "close")
        let request = HTTPRequest(method: "GET", target: url.requestTarget, headers: headers)
        let response = try await perform(request, to: url, tls: tls, on: loop, timeout: timeout, bodyLimit: bodyLimit)
        guard (200..<300).contains(response.status.rawValue) else {
            throw .refused(status: response.status.rawValue, body: response.body)
        }
        return response.body
    }

    private static func late(_ timeout: Duration) -> HTTPClientError {
        .unreachable("no answer within \(timeout)")
    }

    private static func secureSettings(_ url: HTTPURL, _ tls: TLSClientConfiguration) throws(HTTPClientError) -> TLSConnectSettings {
        do throws(TLSFailure) {
            return TLSConnectSettings(context: try TLSContext.client(tls), serverName: tls.serverName ?? url.host)
        } catch {
            throw .untrusted("\(error)")
        }
    }

    /// The next chunk read; nil once the peer closed (FIN or reset).
    private static func nextChunk(_ iterator: inout InboundFrames.Iterator) async -> Result<[UInt8]?, TransportError> {
        do {
            return .success(try await iterator.next())
        } catch .closedByPeer, .connectionReset, .closed {
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }
}
