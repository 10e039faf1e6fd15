import Foundation
import Testing
import TestSupport

/// The shipped scenarios (`scenarios/`) green against the embedded server, as `imsh test`
/// runs them in CI; and what `imsh test` makes of `require` and of a seed.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ShippedSuiteTests {
    /// The repository's `scenarios/` folder, found from this file's path.
    static let scenarios: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("scenarios").path
    }()

    @Test func theShippedScenariosPassOnTheEmbeddedServer() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios).filter { $0.hasSuffix(".imsh") }
        #expect(files.count >= 15, "\(files)")
        let sandbox = Sandbox(shipped: false)
        let run = try await ImshProcess.run(
            ["test", "--profiles", "\(Self.scenarios)/profiles", "--profile", "suite", "--jobs", "2", Self.scenarios],
            home: sandbox.root, timeout: .seconds(170))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdoutLines.last == "\(files.count) passed, 0 failed", "\(run.stdout)")
    }

    @Test func anUnmetRequireIsASkipAndASeedIsPrintedAndPassedOn() async throws {
        let sandbox = Sandbox()
        // A server of its own, without the api to call: the scenario's probe finds it up.
        let server = try await TestServer.start()
        sandbox.write("""
            {"appKey": "\(TestServer.appKey)", "server": "mqtt://127.0.0.1:\(server.mqttPort)", "accounts": {"far-phone": {"userId": "far", "tokenCommand": "echo t"}}}
            """, to: "profiles/far.json")
        sandbox.write("use far\nrequire api\nconnect far-phone\n", to: "sc/a-api.imsh")
        sandbox.write("link bob-phone loss 10\nconnect bob-phone\nexpect bob-phone connected --within 5\n", to: "sc/b-loss.imsh")
        let run = try await ImshProcess.run(
            ["test", "--profiles", sandbox.profiles, "--profile", "dev", "--seed", "5", "\(sandbox.root)/sc"], home: sandbox.root)
        await server.stop()
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdoutLines.first == "seed 5 (imsh test --seed 5 draws the same)", "\(run.stdout)")
        #expect(run.stdout.contains("skip  \(sandbox.root)/sc/a-api.imsh  needs the server API (profile far has no api)"), "\(run.stdout)")
        #expect(run.stdoutLines.last == "1 passed, 0 failed, 1 skipped")
        let json = try await ImshProcess.run(
            ["test", "--profiles", sandbox.profiles, "--profile", "dev", "--seed", "5", "--json", "--filter", "b-loss", "\(sandbox.root)/sc"],
            home: sandbox.root)
        #expect(json.jsonObjects().last?["seed"] == 5, "\(json.stdout)")
    }
}
