import IMHTTP
import IMTransport
import Synchronization

/// One HTTP/1.1 request and its response over a fresh connection, within a time limit.
///
/// The connection uses raw framing: IMHTTP writes the request and parses the answer.
enum HTTPExchange {
    /// Sends `request` to `host:port` (over TLS with `tls`) and returns the first whole response.
    static func perform(
        _ request: HTTPRequest, host: String, port: UInt16, tls: TLSConnectSettings? = nil, on loop: EventLoop,
        timeout: Duration
    ) async throws(ExchangeFailure) -> HTTPResponse {
        let options = ConnectOptions(timeout: timeout, connection: ConnectionOptions(framing: .raw), tls: tls)
        let connection: Connection
        do {
            connection = try await Connection.connect(to: host, port: port, options: options, on: loop)
        } catch {
            throw ExchangeFailure("\(error)")
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
            throw ExchangeFailure(timedOut.withLock { $0 } ? "no answer within \(timeout)" : "cannot send: \(error)")
        }
        var parser = HTTPResponseParser()
        var iterator = frames.makeAsyncIterator()
        while true {
            do {
                if let response = try parser.nextResponse() { return response }
            } catch {
                throw ExchangeFailure("invalid HTTP answer: \(error)")
            }
            switch await nextChunk(&iterator) {
            case .success(let chunk?):
                parser.append(chunk)
            case .success(nil):
                if timedOut.withLock({ $0 }) { throw ExchangeFailure("no answer within \(timeout)") }
                let response: HTTPResponse?
                do {
                    response = try parser.finish()
                } catch {
                    throw ExchangeFailure("invalid HTTP answer: \(error)")
                }
                guard let response else { throw ExchangeFailure("the server closed the connection without answering") }
                return response
            case .failure(let error):
                throw ExchangeFailure(timedOut.withLock { $0 } ? "no answer within \(timeout)" : "\(error)")
            }
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

/// Why an exchange got no response.
struct ExchangeFailure: Error {
    var reason: String

    init(_ reason: String) { self.reason = reason }
}
