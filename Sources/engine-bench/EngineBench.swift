// engine-bench: many sessions of one engine against an in-process broker.
// Run in release mode: swift run -c release engine-bench [--sessions N] [--messages M] [--threads T]
import Foundation
import IMEngine
import IMProtocol
import IMTransport

@main
struct EngineBench {
    static let usage = """
        usage: engine-bench [--sessions N] [--messages M] [--threads T]

        Starts N sessions (default 500) of one engine on T event loop threads (default 2)
        against a broker on 127.0.0.1 in this process, each with its own SQLite database
        in a temporary directory. Measures: all N connected (CONNECT to CONNACK, database
        opened first); M messages (default 20) sent per session, each stored pending,
        published and marked sent on PUBACK; M messages delivered to each session, each
        stored before its PUBACK.
        """

    static func main() async throws {
        var sessions = 500
        var messages = 20
        var threads = 2
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            let value = { () -> Int in
                guard let text = arguments.popFirst(), let value = Int(text), value > 0 else { fail("\(argument) needs a positive number") }
                return value
            }
            switch argument {
            case "--sessions": sessions = min(value(), 5000)
            case "--messages": messages = value()
            case "--threads": threads = min(value(), 64)
            case "-h", "--help":
                print(usage)
                return
            default: fail("unknown argument \(argument)")
            }
        }
        try await run(sessions: sessions, messages: messages, threads: threads)
    }

    static func run(sessions: Int, messages: Int, threads: Int) async throws {
        _ = try? ProcessLimits.raiseOpenFileLimit()
        let broker = try BenchBroker()
        let directory = NSTemporaryDirectory() + "engine-bench-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let engine = try SessionEngine(EngineConfiguration(
            appKey: "bench", servers: [ServerAddress(host: "127.0.0.1", port: broker.port)], dataDirectory: directory,
            callbacks: .immediate, networkMonitor: .none, eventLoopThreads: threads))
        let all = (0..<sessions).map { index in
            engine.makeSession(ConnectParameters(token: token(for: "u\(index)"), deviceID: "d\(index)"))
        }
        print("engine-bench: \(sessions) sessions, \(messages) messages each way, \(threads) event loop threads")

        let connected = try await measure {
            try await withThrowingTaskGroup(of: String.self) { group in
                for session in all { group.addTask { try await session.connect() } }
                try await group.waitForAll()
            }
        }
        report("connect", count: sessions, unit: "sessions", connected)

        let sent = try await measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for session in all {
                    group.addTask {
                        let reports = await session.sendReports()
                        for number in 0..<messages { _ = try await session.send(text: "bench \(number)", to: "peer") }
                        var acknowledged = 0
                        for await _ in reports {
                            acknowledged += 1
                            if acknowledged == messages { break }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        report("send", count: sessions * messages, unit: "messages", sent)

        let received = try await measure {
            broker.deliver(messages)
            let deadline = ContinuousClock.now + .seconds(120)
            while broker.deliveriesAcknowledged < sessions * messages {
                guard ContinuousClock.now < deadline else { fail("deliveries not acknowledged within 120 s") }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        report("receive", count: sessions * messages, unit: "messages", received)

        await engine.shutdown()
        broker.shutdown()
    }

    static func token(for user: String) -> String {
        (try? Token.sign(TokenClaims(appKey: "bench", userID: user, issuedAt: 1, nonce: "00"), secret: "bench")) ?? ""
    }

    static func measure(_ body: @Sendable () async throws -> Void) async throws -> Duration {
        let start = ContinuousClock.now
        try await body()
        return ContinuousClock.now - start
    }

    static func report(_ name: String, count: Int, unit: String, _ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(count) / seconds : 0
        let label = name.padding(toLength: 8, withPad: " ", startingAt: 0)
        print(label + String(format: "%7d ", count) + unit + String(format: " in %.3f s: %.0f ", seconds, rate) + unit + "/s")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("engine-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
}
