// libFuzzer target for the MQTT 5 decoder (Sources/MQTT).
//
// The input is a byte stream as a peer could send it. Oracles:
// - `PacketDecoder` fed the stream whole, a byte at a time and in pseudo-random pieces yields
//   the same packets, then the same error or the same number of bytes left waiting;
// - an error carries one of the reason codes a decoder may answer with;
// - every decoded packet passes `validate()`, re-encodes and decodes to the same value, and
//   prints a description;
// - `Packet(frame:)` on the whole input agrees with the decoder: it succeeds exactly when the
//   stream is one whole packet.
import MQTT

/// libFuzzer calls this once per input; a return of 0 keeps the input eligible for the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func mqttFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    MQTTFuzzTarget.run(fuzzInput(data, size))
    return 0
}

enum MQTTFuzzTarget {
    /// What a decoder made of a stream: its packets, then how it stopped.
    struct Outcome: Equatable {
        var packets: [Packet] = []
        var error: MQTTError?
        var leftOver = 0
    }

    static let errorCodes: Set<ReasonCode> = [.malformedPacket, .protocolError, .packetTooLarge, .unsupportedProtocolVersion]

    static func run(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { decode($0.pieces(of: bytes)) }
        let whole = outcomes[0]
        for (feeding, outcome) in zip(Feeding.allCases, outcomes) where outcome != whole {
            fuzzFailure("fed \(feeding), the decoder gave \(outcome), fed whole \(whole)")
        }
        if let error = whole.error, !errorCodes.contains(error.reasonCode) {
            fuzzFailure("unexpected reason code in \(error)")
        }
        for packet in whole.packets { checkRoundTrip(packet) }
        checkFrame(bytes, against: whole)
    }

    static func decode(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        var decoder = PacketDecoder()
        var outcome = Outcome()
        for piece in pieces {
            decoder.append(piece)
            do {
                while let packet = try decoder.next() { outcome.packets.append(packet) }
            } catch {
                outcome.error = error
                return outcome
            }
        }
        outcome.leftOver = decoder.bufferedByteCount
        return outcome
    }

    static func checkRoundTrip(_ packet: Packet) {
        do {
            try packet.validate()
        } catch {
            fuzzFailure("decoded \(packet) but validate() refuses it: \(error)")
        }
        checkReadsBack(packet, written: packet.encoded()) { bytes throws(MQTTError) in try Packet(frame: bytes) }
        _ = packet.description
    }

    static func checkFrame(_ bytes: [UInt8], against stream: Outcome) {
        let isOnePacket = stream.packets.count == 1 && stream.error == nil && stream.leftOver == 0
        do {
            let packet = try Packet(frame: bytes)
            guard isOnePacket, stream.packets[0] == packet else {
                fuzzFailure("Packet(frame:) decoded \(packet), the decoder gave \(stream)")
            }
        } catch {
            if isOnePacket { fuzzFailure("the decoder gave \(stream), Packet(frame:) refused it: \(error)") }
            if !errorCodes.contains(error.reasonCode) { fuzzFailure("unexpected reason code in \(error)") }
        }
    }
}
