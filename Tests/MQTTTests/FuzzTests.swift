import Foundation
import MQTT
import Testing

/// Random and mutated input must end as a packet, "need more bytes" or an error: never a crash or a hang.
struct FuzzTests {
    enum Outcome: Hashable {
        case packet, needMore, error
    }

    static let seeds: [[UInt8]] = samplePackets.map { $0.encoded() }
        + PropertyContext.all.map { RoundTripTests.packet(for: $0, with: RoundTripTests.allProperties(in: $0)).encoded() }

    static func mutate(_ input: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty:  // flip bits of one byte
                bytes[Int.random(in: bytes.indices, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            case 1 where !bytes.isEmpty:  // truncate
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 2:  // insert random bytes
                let at = Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: (0..<Int.random(in: 1...4, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
            case 3 where !bytes.isEmpty:  // delete a byte
                bytes.remove(at: Int.random(in: bytes.indices, using: &random))
            case 4 where bytes.count > 1:  // set a length-like byte to an extreme
                bytes[Int.random(in: 1..<bytes.count, using: &random)] = [0x00, 0x7F, 0x80, 0xFF].randomElement(using: &random)!
            default:  // append a copy of another packet
                bytes += seeds.randomElement(using: &random)!
            }
        }
        return bytes
    }

    /// Feeds `bytes` to a decoder and returns how the last step ended.
    static func run(_ bytes: [UInt8]) -> Outcome {
        var decoder = PacketDecoder(maximumPacketSize: 4096)
        decoder.append(bytes)
        var outcome = Outcome.needMore
        // Each packet consumes at least 2 bytes, so this loop ends.
        for _ in 0...bytes.count / 2 {
            do {
                guard let packet = try decoder.next() else { return outcome }
                outcome = .packet
                // Whatever decodes must survive encoding and decoding again unchanged.
                #expect(try Packet(frame: packet.encoded()) == packet, "\(bytes)")
            } catch {
                #expect([ReasonCode.malformedPacket, .protocolError, .packetTooLarge, .unsupportedProtocolVersion].contains(error.reasonCode))
                return .error
            }
        }
        Issue.record("decoder did not stop on \(bytes)")
        return outcome
    }

    /// Runs on a thread of its own: seconds of decoding on the test pool's few threads would
    /// delay every timing-sensitive test running beside it.
    @Test func hundredThousandRandomAndMutatedBuffers() async {
        let counts = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Self.decodeRandomAndMutatedBuffers()) }
        }
        #expect(counts.values.reduce(0, +) == 100_000)
        // Each outcome must be common, or the generator is not exercising the decoder.
        #expect(counts[.packet, default: 0] > 1_000, "\(counts)")
        #expect(counts[.needMore, default: 0] > 1_000, "\(counts)")
        #expect(counts[.error, default: 0] > 1_000, "\(counts)")
    }

    static func decodeRandomAndMutatedBuffers() -> [Outcome: Int] {
        var random = SplitMix64(seed: 20_240_501)
        var counts: [Outcome: Int] = [:]
        for round in 0..<100_000 {
            let bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...48, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = Self.mutate(Self.seeds.randomElement(using: &random)!, using: &random)
            }
            counts[Self.run(bytes), default: 0] += 1
            // A whole-frame decode of the same bytes must also end in a packet or a typed error.
            _ = try? Packet(frame: bytes)
        }
        return counts
    }
}
