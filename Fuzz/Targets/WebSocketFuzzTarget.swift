// libFuzzer target for the WebSocket layer (Sources/IMTransport/WebSocket). Oracles:
// - `WebSocketFrame.decode` on the input as a stream: every frame within the limits (control
//   frames whole and at most 125 bytes), re-encoded it decodes to the same frame; every proper
//   prefix of a frame is "need more bytes", never a frame or an error;
// - a server `WebSocketStream` reading the input from a peer (the upgrade request, then frames)
//   fed whole, a byte at a time and in pieces hands over the same payload bytes, ends the same
//   way and writes the same answer; that answer is an HTTP response, 101 only for a request
//   the handshake accepts, and what follows a 101 is unmasked frames;
// - a client stream that got the input as the server's answer (a 101 first) fails or hands
//   over the same bytes whatever the feeding.
import IMHTTP
@testable import IMTransport
import MQTT

/// libFuzzer calls this once per input; a return of 0 keeps the input eligible for the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WebSocketFuzzTarget.run(fuzzInput(data, size))
    return 0
}

/// The peer's bytes, handed over in the given pieces, then the end of the stream; writes are
/// kept. Reads never block, so a stream that answers `.wouldBlock` would be a bug.
final class ScriptedStream: ByteStream {
    var pieces: [ArraySlice<UInt8>]
    var written: [UInt8] = []
    let fileDescriptor: Int32 = -1

    init(_ pieces: [ArraySlice<UInt8>]) { self.pieces = pieces.reversed() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
        guard var piece = pieces.popLast() else { return .endOfStream }
        let count = min(piece.count, buffer.count)
        piece.prefix(count).withUnsafeBytes { buffer.copyMemory(from: $0) }
        piece = piece.dropFirst(count)
        if !piece.isEmpty { pieces.append(piece) }
        return .processed(count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult {
        written += bytes
        return .processed(bytes.count)
    }

    func shutdownOutput() {}
    func close(abortively: Bool) {}
}

enum WebSocketFuzzTarget {
    /// Small limits, so that short inputs reach them.
    static let settings = WebSocketSettings(limits: WebSocketLimits(maxFrameSize: 512, maxMessageSize: 1024))

    struct Outcome: Equatable {
        var delivered: [UInt8] = []
        var failure: TransportError?
        var written: [UInt8] = []
    }

    static func run(_ bytes: [UInt8]) {
        checkFrames(bytes)
        checkServer(bytes)
        checkClient(bytes)
    }

    static func checkFrames(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        while true {
            let start = reader.offset
            let frame: WebSocketFrame
            do {
                guard let next = try WebSocketFrame.decode(from: &reader, limits: settings.limits) else { return }
                frame = next
            } catch {
                return
            }
            let length = reader.offset - start
            if frame.payload.count > settings.limits.maxFrameSize { fuzzFailure("a frame of \(frame.payload.count) bytes passed") }
            if frame.opcode.isControl && (!frame.fin || frame.payload.count > 125) { fuzzFailure("control frame \(frame)") }
            var writer = ByteWriter()
            frame.encode(into: &writer)
            checkReadsBack(frame, written: writer.bytes) { written throws(WebSocketError) in
                var again = ByteReader(written)
                guard let decoded = try WebSocketFrame.decode(from: &again, limits: settings.limits), again.isAtEnd else {
                    throw WebSocketError(.internalError, "not one whole frame")
                }
                return decoded
            }
            for cut in stride(from: 0, to: length, by: max(1, length / 16)) {
                var prefix = ByteReader(Array(bytes[start..<start + cut]))
                if (try? WebSocketFrame.decode(from: &prefix, limits: settings.limits)) != .some(nil) {
                    fuzzFailure("the first \(cut) of \(length) bytes of a frame did not ask for more")
                }
            }
        }
    }

    /// Reads `stream` to its end (or its first failure), 100 bytes at a time.
    static func drain(_ stream: WebSocketStream, _ inner: ScriptedStream) -> Outcome {
        var outcome = Outcome()
        var buffer = [UInt8](repeating: 0, count: 100)
        reading: while true {
            let result = buffer.withUnsafeMutableBytes { pointer in
                Result { () throws(TransportError) in try stream.read(into: pointer) }
            }
            switch result {
            case .success(.processed(let count)): outcome.delivered += buffer[..<count]
            case .success(.wouldBlock): fuzzFailure("a read would block on a stream that never does")
            case .success(.endOfStream): break reading
            case .failure(let error):
                outcome.failure = error
                break reading
            }
        }
        _ = try? stream.flushPending()
        outcome.written = inner.written
        return outcome
    }

    static func checkServer(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { feeding in
            let inner = ScriptedStream(feeding.pieces(of: bytes))
            return drain(WebSocketStream(serving: inner, settings: settings), inner)
        }
        for (feeding, outcome) in zip(Feeding.allCases, outcomes) where outcome != outcomes[0] {
            fuzzFailure("the server stream fed \(feeding) gave \(outcome), fed whole \(outcomes[0])")
        }
        let outcome = outcomes[0]
        guard !outcome.written.isEmpty else { return }
        var parser = HTTPResponseParser()
        parser.append(outcome.written)
        guard let response = try? parser.nextUpgradeHead() else { fuzzFailure("the server wrote no HTTP response: \(outcome.written)") }
        guard response.status == .switchingProtocols else {
            if !outcome.delivered.isEmpty { fuzzFailure("data handed over after a refused upgrade") }
            return
        }
        var frames = ByteReader(parser.takeBufferedBytes())
        while let frame = try? WebSocketFrame.decode(from: &frames, limits: WebSocketLimits()) {
            if frame.maskingKey != nil { fuzzFailure("the server masked \(frame)") }
        }
        if !frames.isAtEnd { fuzzFailure("the server wrote bytes that are not frames after its 101") }
    }

    static func checkClient(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { feeding in
            let inner = ScriptedStream(feeding.pieces(of: bytes))
            let stream = WebSocketStream(connectingOver: inner, host: "broker.example", port: 80, settings: settings)
            do throws(TransportError) {
                guard try stream.advanceUpgrade() else { return Outcome(failure: .closedByPeer) }
            } catch {
                return Outcome(failure: error)
            }
            var outcome = drain(stream, inner)
            outcome.written = []  // masked with random keys
            return outcome
        }
        for (feeding, outcome) in zip(Feeding.allCases, outcomes) where outcome != outcomes[0] {
            fuzzFailure("the client stream fed \(feeding) gave \(outcome), fed whole \(outcomes[0])")
        }
    }
}
