// mqtt-bench: encode and decode throughput of the MQTT codec.
// Run in release mode: swift run -c release mqtt-bench
import Glibc
import MQTT

let usage = """
    usage: mqtt-bench [--seconds N]

    Measures encode and decode throughput of the MQTT 5 codec for
    PUBLISH QoS 1 with a 100-byte payload and for CONNECT with a user name,
    password and user properties. Each case runs for N seconds (default 1).

    options:
      --seconds N   seconds per case (0.1 to 60)
      -h, --help    show this help
    """

func fail(_ message: String) -> Never {
    var standardError = StandardError()
    print("mqtt-bench: \(message)\n\n\(usage)", to: &standardError)
    exit(2)
}

var secondsPerCase = 1.0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--seconds":
        guard let value = arguments.popFirst().flatMap(Double.init), (0.1...60).contains(value) else {
            fail("--seconds needs a number from 0.1 to 60")
        }
        secondsPerCase = value
    default:
        fail("unknown argument \(argument)")
    }
}

let publish = Packet.publish(Publish(
    topic: "im/inbox/user-0001", payload: Array(repeating: 0x7A, count: 100), qos: .atLeastOnce, packetIdentifier: 4242,
    properties: [.payloadFormatIndicator(.utf8), .contentType("application/json"),
                 .userProperty("im-msg-uid", "01HZX3K9Q8"), .userProperty("im-sent-at", "1717171717171")]))
let connect = Packet.connect(Connect(
    clientIdentifier: "device-0001", cleanStart: false, keepAlive: 30, userName: "app-key-0001",
    password: Array("token-abcdefghijklmnopqrstuvwxyz-0123456789".utf8),
    properties: [.sessionExpiryInterval(604_800), .userProperty("im-platform", "mobile"),
                 .userProperty("im-reconnect", "1"), .userProperty("im-kick-enable", "1")]))

print("mqtt-bench: \(secondsPerCase) s per case")
for (name, packet) in [("PUBLISH QoS 1, 100-byte payload", publish), ("CONNECT with credentials and user properties", connect)] {
    let frame = packet.encoded()
    guard (try? Packet(frame: frame)) == packet else { fail("\(name) does not round-trip") }
    print("\(name): \(frame.count) bytes per packet")
    let encode = Benchmark.measure(seconds: secondsPerCase) { count in
        var writer = ByteWriter(capacity: frame.count * 1000)
        var written = 0
        for round in 0..<count {
            if round % 1000 == 0 {
                written &+= writer.count
                writer.removeAll()
            }
            packet.encode(into: &writer)
        }
        return written &+ writer.count
    }
    print("  encode  \(encode.report(bytesPerPacket: frame.count))")
    // Decode through PacketDecoder, as a connection would: a stream of back-to-back packets.
    let stream = Array((0..<1000).map { _ in frame }.joined())
    let decode = Benchmark.measure(seconds: secondsPerCase) { count in
        var decoder = PacketDecoder()
        var decoded = 0
        for _ in 0..<(count + 999) / 1000 {
            decoder.append(stream)
            while let packet = try? decoder.next() {
                if case .publish(let publish) = packet { decoded += publish.payload.count } else { decoded += 1 }
            }
        }
        return decoded
    }
    print("  decode  \(decode.report(bytesPerPacket: frame.count))")
}
