import Foundation
import IMChaos
import IMProcess
import Testing

/// The `imchaos` executable: its listening line, commands on standard input, random faults.
@Suite(.timeLimit(.minutes(1)))
struct ImchaosExecutableTests {
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("imchaos").path
    }

    /// A running imchaos in front of `target`, its output read a line at a time.
    struct Running {
        let process: ChildProcess
        let output: LineReader

        init(_ arguments: [String]) throws {
            process = try ChildProcess.spawn(ImchaosExecutableTests.binary, arguments, stdin: .pipe, stderr: .null)
            output = LineReader(process.stdout!)
        }

        func command(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(process.stdin!, $0.baseAddress, $0.count) }
        }

        func object() async throws -> [String: Any] {
            let line = try #require(try await output.line())
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }

        func end() -> ChildProcess.Termination {
            process.signal(SIGKILL)
            return process.wait()
        }
    }

    @Test func printsWhereItListensTakesCommandsAndQuits() async throws {
        try await withChaos { chaos in
            let imchaos = try Running(["--target", "127.0.0.1:\(chaos.target.localAddress.port)", "--json"])
            var quit = false
            defer { if !quit { _ = imchaos.end() } }
            let listening = try await imchaos.object()
            #expect(listening["event"] as? String == "listening")
            #expect(listening["target"] as? String == "127.0.0.1:\(chaos.target.localAddress.port)")
            #expect(listening["random"] as? Bool == false)
            let address = try #require(listening["address"] as? String)
            let port = try #require(address.split(separator: ":").last.flatMap { UInt16($0) })
            #expect(address.hasPrefix("127.0.0.1:") && port != 0)

            let client = try await chaos.dial(port)
            let server = try await chaos.nextAccepted()
            imchaos.command("fault all blackhole")
            let fault = try await imchaos.object()
            #expect(fault["event"] as? String == "fault" && fault["connection"] as? String == "all")
            #expect(fault["fault"] as? String == "blackhole" && fault["origin"] as? String == "command")
            try await client.send([1, 2, 3])
            #expect(await server.staysSilent(for: .milliseconds(200)))

            imchaos.command("list")
            let connection = try await imchaos.object()
            #expect(connection["id"] as? Int == 1 && connection["conditions"] as? String == "blackhole")
            #expect(connection["upstream"] as? String == "connected" && connection["held"] as? Int == 3)
            #expect(try await imchaos.object()["count"] as? Int == 1)

            imchaos.command("fault 1 pass")
            #expect(try await imchaos.object()["connection"] as? Int == 1)
            #expect(try await server.read(3) == [1, 2, 3])

            imchaos.command("quit")
            #expect(try await imchaos.output.line() == nil)
            quit = true
            #expect(imchaos.process.wait() == .exited(0))
        }
    }

    @Test func aSeedStartsRandomFaultsThatNameTheirConnection() async throws {
        try await withChaos { chaos in
            let imchaos = try Running([
                "--target", "127.0.0.1:\(chaos.target.localAddress.port)", "--seed", "7", "--every", "100ms", "--faults", "cut",
            ])
            defer { _ = imchaos.end() }
            let listening = try #require(try await imchaos.output.line())
            #expect(listening.hasPrefix("listening 127.0.0.1:") && listening.hasSuffix(" seed 7 random on"), "\(listening)")
            let port = try #require(listening.split(separator: " ")[1].split(separator: ":").last.flatMap { UInt16($0) })
            let client = try await chaos.dial(port)
            _ = try await chaos.nextAccepted()
            #expect(try await imchaos.output.line() == "fault 1 cut (random)")
            try await client.send(TestPackets.pingRequest)
            // The cut is armed again at every tick until it is made.
            var line = try await imchaos.output.line()
            while line == "fault 1 cut (random)" { line = try await imchaos.output.line() }
            #expect(line == "cut 1 PINGREQ to server after 1 of 2 bytes")
        }
    }

    @Test func aCommandLineWithoutATargetIsAUsageError() throws {
        let output = try ChildProcess.run(Self.binary, ["--listen", "127.0.0.1:0"], timeout: .seconds(30))
        #expect(output.termination == .exited(2))
        #expect(String(decoding: output.stderr, as: UTF8.self) == "imchaos: missing --target HOST:PORT: the server to forward to\n")
    }
}
