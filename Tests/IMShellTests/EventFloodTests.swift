import Foundation
import Synchronization
import Testing
import TestSupport

/// 200,000 messages to one account, as a busy account gets them over a day: imsh lives, prints
/// each message once, stores each once, and its memory stays flat after warm-up.
///
/// Before the event hub, imsh died of a stack overflow near 26,000 events (each event wrapped
/// the output closure once more).
@Suite(.serialized, .timeLimit(.minutes(6)))
struct EventFloodTests {
    static let count = 200_000
    /// Messages after which the process's memory has reached its working size.
    static let warmUp = 30_000
    /// Growth of VmRSS allowed between warm-up and the end.
    static let allowedGrowthKiB = 10 * 1024
    static let device = "bob-flood"

    static func setUp() async throws -> (TestServer, Sandbox, MessageFlood) {
        let server = try await TestServer.start()
        let sandbox = Sandbox(shipped: false)
        let token = try await server.token(for: "bob")
        sandbox.write(server.profile(accounts: #"{ "bob": { "token": "\#(token)", "deviceId": "\#(device)" } }"#),
                      to: "profiles/remote.json")
        return (server, sandbox, MessageFlood(server: server, device: device))
    }

    @Test func scriptModeLivesThroughTwoHundredThousandMessages() async throws {
        let (server, sandbox, flood) = try await Self.setUp()
        let imsh = try RunningImsh(sandbox, ["--json"], name: "flood")
        try imsh.send("connect remote/bob")
        try await flood.waitUntilOnline()
        let memory = ResidentGrowth(pid: imsh.process.pid, warmUp: Self.warmUp)
        // Sampled once the output has caught up too: on a loaded machine the events not yet
        // written (the hub holds up to 100,000) weighed 14 MB at a step's end.
        let printed = PrintedCount(path: imsh.outputPath, marker: #""text":"flood "#)
        try await flood.run(count: Self.count) { sent in
            try await printed.wait(atLeast: sent - 2_000)
            memory.sample(after: sent)
        }
        try imsh.send("quit")
        imsh.closeInput()
        let ended = try await imsh.finish(within: .seconds(60))
        #expect(ended == .exited(0), "imsh lives and ends normally: \(String(imsh.output.suffix(2000)))")
        await server.stop()

        let output = try Array(Data(contentsOf: URL(fileURLWithPath: imsh.outputPath)))
        try Self.expectEachOnce(MessageFlood.numbers(in: output, marker: #""text":"flood "#))
        try await Self.expectStoredOnce(sandbox)
        let (warm, late) = memory.figures
        print("EventFloodTests script mode: VmRSS \(warm) KiB after \(Self.warmUp) messages, at most \(late) KiB later")
        #expect(warm > 0 && late - warm < Self.allowedGrowthKiB, "VmRSS \(warm) KiB after warm-up, \(late) KiB at most later")
    }

    @Test func theREPLLivesThroughTwoHundredThousandMessages() async throws {
        let (server, sandbox, flood) = try await Self.setUp()
        // Plain text, so the events can be counted in the bytes written.
        let shell = try InteractiveImsh(
            ["--profiles", sandbox.profiles, "--data", sandbox.data], home: sandbox.home, environment: ["NO_COLOR": "1"])
        defer { shell.close() }
        await shell.expectScreen("the prompt") { $0.allLines.contains { $0.contains("remote>") } }
        shell.type("connect remote/bob\r")
        try await flood.waitUntilOnline()
        let memory = ResidentGrowth(pid: shell.process.pid, warmUp: Self.warmUp)
        try await flood.run(count: Self.count) { memory.sample(after: $0) }
        // Every message is on the terminal before imsh ends.
        let last = "message from alice: flood \(Self.count - 1)"
        let printed = await shell.terminal.waitForBytes(timeout: .seconds(60)) { $0.contains(last) }
        #expect(printed, "the last message reached the terminal")
        shell.type("quit\r")
        #expect(await shell.waitForExit(timeout: .seconds(60)) == 0)
        await server.stop()

        try Self.expectEachOnce(MessageFlood.numbers(in: shell.terminal.bytes, marker: "message from alice: flood "))
        try await Self.expectStoredOnce(sandbox)
        let (warm, late) = memory.figures
        print("EventFloodTests REPL: VmRSS \(warm) KiB after \(Self.warmUp) messages, at most \(late) KiB later")
        #expect(warm > 0 && late - warm < Self.allowedGrowthKiB, "VmRSS \(warm) KiB after warm-up, \(late) KiB at most later")
    }

    /// How many `flood N` events a growing output file holds, read on from where the last look ended.
    final class PrintedCount: Sendable {
        let path: String
        let marker: String
        private let seen = Mutex<(offset: UInt64, count: Int)>((0, 0))

        init(path: String, marker: String) {
            self.path = path
            self.marker = marker
        }

        /// Waits until the file holds at least `count` events; throws after a minute.
        func wait(atLeast count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while look() < count {
                guard ContinuousClock.now < deadline else { throw TestFailure("\(look()) of \(count) printed after a minute") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        private func look() -> Int {
            seen.withLock { seen in
                guard let file = FileHandle(forReadingAtPath: path) else { return seen.count }
                defer { try? file.close() }
                try? file.seek(toOffset: seen.offset)
                let bytes = Array(file.readDataToEndOfFile())
                // Whole lines only (one event each): a line still being written is read next time.
                guard let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return seen.count }
                seen.count += MessageFlood.numbers(in: Array(bytes[...end]), marker: marker).count
                seen.offset += UInt64(end + 1)
                return seen.count
            }
        }
    }

    /// VmRSS of a process once warmed up, and the most it reached after.
    final class ResidentGrowth: Sendable {
        let pid: Int32
        let warmUp: Int
        private let memory = Mutex<(warm: Int?, late: Int)>((nil, 0))

        init(pid: Int32, warmUp: Int) {
            self.pid = pid
            self.warmUp = warmUp
        }

        func sample(after sent: Int) {
            guard let resident = ProcessMemory.of(pid: pid)?.resident else { return }
            memory.withLock { memory in
                if sent >= warmUp, memory.warm == nil { memory.warm = resident }
                memory.late = max(memory.late, resident)
            }
        }

        var figures: (warm: Int, late: Int) { memory.withLock { ($0.warm ?? 0, $0.late) } }
    }

    static func expectEachOnce(_ numbers: [Int]) throws {
        let unique = Set(numbers)
        #expect(numbers.count == count, "printed \(numbers.count) message events for \(count) messages")
        #expect(unique.count == count && unique.min() == 0 && unique.max() == count - 1, "each message printed once")
    }

    static func expectStoredOnce(_ sandbox: Sandbox) async throws {
        let files = SQLiteFiles.all(under: sandbox.data).filter { $0.hasSuffix("/bob.sqlite") }
        let file = try #require(files.count == 1 ? files.first : nil, "bob's database")
        let counts = try await offPool {
            try SQLiteFiles.rows(file, "SELECT COUNT(*), COUNT(DISTINCT uid) FROM message WHERE direction = 0")
        }
        #expect(counts.first == [String(count), String(count)], "each message stored once: \(counts)")
    }
}
