// engine-bench: many sessions of one engine against the embedded IM server, in one process.
// Run in release mode: swift build -c release --product engine-bench && .build/release/engine-bench
import Foundation
import IMEngine
import IMServer
import IMTransport
import IMProtocol

@main
struct EngineBench {
    static let usage = """
        usage: engine-bench [--sessions N] [--messages M] [--threads T]

        Starts the IM server (EmbeddedServer) on 127.0.0.1 in this process, then N sessions
        (default 1000) of one engine on T event loop threads (default 2), each a user of its
        own with its own SQLite database in a temporary directory. Measures:
          open      the time until every session's database is open (part of connect).
          connect   the time until all N are connected (token issued by the server, database
                    opened, CONNECT to CONNACK), and the resident memory (VmRSS) before and
                    after, total and per session. Both ends of each connection live in this
                    process, so the per-session figure holds the server's share too.
          send      M messages (default 10) from each session to the next user, each stored
                    pending, published, stored by the server and marked sent on its PUBACK.
          deliver   the same messages stored in each recipient's database (from the first send).
        Use --messages 0 to measure connecting only.
        """

    struct Options {
        var sessions = 1000
        var messages = 10
        var threads = 2
    }

    static func main() async {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            let value = { (range: ClosedRange<Int>) -> Int in
                guard let text = arguments.popFirst(), let value = Int(text), range.contains(value) else {
                    fail("\(argument) needs a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return value
            }
            switch argument {
            case "--sessions": options.sessions = value(1...5000)
            case "--messages": options.messages = value(0...1000)
            case "--threads": options.threads = value(1...64)
            case "-h", "--help":
                print(usage)
                return
            default: fail("unknown argument \(argument)")
            }
        }
        do {
            try await run(options)
        } catch {
            FileHandle.standardError.write(Data("engine-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ options: Options) async throws {
        let descriptors = (try? ProcessLimits.raiseOpenFileLimit()) ?? 0
        let root = NSTemporaryDirectory() + "engine-bench-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let app = AppSettings(appKey: "bench", appSecret: "bench-secret")
        let server = try await EmbeddedServer.start(.init(
            configuration: ServerConfiguration(apps: [app]), dataDirectory: root + "/server"))
        let engine = try SessionEngine(EngineConfiguration(
            appKey: app.appKey, servers: [ServerAddress(host: "127.0.0.1", port: server.mqttAddress.port)],
            dataDirectory: root + "/clients", callbacks: .immediate, networkMonitor: .none,
            eventLoopThreads: options.threads))
        print("engine-bench: \(options.sessions) sessions, \(options.messages) messages each, "
            + "\(options.threads) event loop threads, embedded server on \(server.mqttAddress), \(descriptors) descriptors")

        let users = (0..<options.sessions).map { "u\($0)" }
        var sessions: [Session] = []
        for user in users {
            let token = try await server.backend.issueToken(appKey: app.appKey, userID: user)
            sessions.append(engine.makeSession(ConnectParameters(token: token, deviceID: "d-\(user)")))
        }
        let before = ResidentMemory.current()
        let opened = Milestone(count: options.sessions)
        let connected = try await Measurement.time {
            try await withThrowingTaskGroup(of: String.self) { group in
                for session in sessions {
                    group.addTask { try await session.connect(databaseOpened: { _, _ in opened.reach() }) }
                }
                try await group.waitForAll()
            }
        }
        let after = ResidentMemory.current()
        if let databases = opened.reachedAfter {
            Measurement.report("open", count: options.sessions, unit: "databases", databases)
        }
        Measurement.report("connect", count: options.sessions, unit: "sessions", connected)
        ResidentMemory.report(before: before, after: after, sessions: options.sessions)

        if options.messages > 0 {
            try await exchange(sessions, users: users, messages: options.messages)
        }
        await engine.shutdown()
        await server.stop()
    }

    /// Each session sends `messages` to the next user; times the PUBACKs and the deliveries.
    static func exchange(_ sessions: [Session], users: [String], messages: Int) async throws {
        var inboxes: [AsyncStream<StoredMessage>] = []
        for session in sessions { inboxes.append(await session.receivedMessages()) }
        let start = ContinuousClock.now
        let delivered = Task {
            await withTaskGroup(of: Void.self) { group in
                for inbox in inboxes {
                    group.addTask {
                        var count = 0
                        for await _ in inbox {
                            count += 1
                            if count == messages { break }
                        }
                    }
                }
            }
            return ContinuousClock.now - start
        }
        let sent = try await Measurement.time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, session) in sessions.enumerated() {
                    let peer = users[(index + 1) % users.count]
                    group.addTask {
                        let reports = await session.sendReports()
                        for number in 0..<messages { _ = try await session.send(text: "bench \(number)", to: peer) }
                        var acknowledged = 0
                        for await report in reports {
                            guard report.isAccepted else { throw BenchError("the server refused a message: \(report)") }
                            acknowledged += 1
                            if acknowledged == messages { break }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        Measurement.report("send", count: sessions.count * messages, unit: "messages", sent)
        let deadline = Task {
            try await Task.sleep(for: .seconds(120))
            delivered.cancel()
        }
        let deliveredAfter = await delivered.value
        deadline.cancel()
        guard !delivered.isCancelled else { throw BenchError("messages not all delivered within 120 s of sending") }
        Measurement.report("deliver", count: sessions.count * messages, unit: "messages", deliveredAfter)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("engine-bench: \(message)\n\n\(usage)\n".utf8))
        exit(2)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
