import IMHTTP
import IMTransport
import TestSupport

/// An HTTP/1.1 client on a raw IMTransport connection, reading with IMHTTP's response parser.
struct APITestClient: Sendable {
    let connection: Connection
    private let frames: InboundFrames

    static func connect(port: UInt16, on loop: EventLoop) async throws -> APITestClient {
        // Room to queue a flood the server does not read (see the back-pressure test).
        let limits = ConnectionOptions(outboundLimit: 64 << 20, framing: .raw)
        let options = ConnectOptions(timeout: .seconds(5), connection: limits)
        let connection = try await Connection.connect(to: "127.0.0.1", port: port, options: options, on: loop)
        return APITestClient(connection: connection, frames: connection.frames())
    }

    private init(connection: Connection, frames: InboundFrames) {
        self.connection = connection
        self.frames = frames
    }

    func send(_ bytes: [UInt8]) async throws {
        try await connection.write(bytes)
    }

    func send(_ request: HTTPRequest) async throws {
        try await send(request.serialized())
    }

    /// A reader of the responses; use one per client.
    func reader() -> APIResponseReader {
        APIResponseReader(frames: frames.makeAsyncIterator())
    }

    func close() {
        connection.close(.abortive)
    }
}

/// Reads responses (and the end of the stream) from one test client.
struct APIResponseReader {
    fileprivate var frames: InboundFrames.Iterator
    private var parser = HTTPResponseParser()
    /// Every byte read so far, for checks below the parser (100 Continue).
    private(set) var raw: [UInt8] = []

    fileprivate init(frames: InboundFrames.Iterator) {
        self.frames = frames
    }

    /// The next whole response; throws if the server closes first.
    mutating func next() async throws -> HTTPResponse {
        while true {
            if let response = try parser.nextResponse() { return response }
            guard let chunk = try await readChunk() else {
                throw TestFailure("the server closed the connection before a whole response")
            }
            parser.append(chunk)
        }
    }

    /// The bytes read so far once there are at least `count` (they also go to the parser).
    mutating func rawBytes(atLeast count: Int) async throws -> [UInt8] {
        while raw.count < count {
            guard let chunk = try await readChunk() else { throw TestFailure("closed after \(raw.count) bytes") }
            parser.append(chunk)
        }
        return raw
    }

    /// Reads until the server closes; returns the responses that came first.
    mutating func untilClosed() async throws -> [HTTPResponse] {
        var responses: [HTTPResponse] = []
        while true {
            if let response = try parser.nextResponse() {
                responses.append(response)
                continue
            }
            guard let chunk = try await readChunk() else {
                if let last = try parser.finish() { responses.append(last) }
                return responses
            }
            parser.append(chunk)
        }
    }

    /// The next chunk, or nil once the server closed (FIN or reset).
    private mutating func readChunk() async throws -> [UInt8]? {
        do {
            guard let chunk = try await frames.next() else { return nil }
            raw += chunk
            return chunk
        } catch .closedByPeer, .connectionReset {
            return nil
        }
    }
}
