import IMServer
import Testing
import TestSupport

/// Runs the built `imserver app` on a temporary data directory, as an operator would.
struct AppCommandTests {
    let directory = TemporaryDirectory()

    func app(_ arguments: String...) throws -> AppCommandRunner.Result {
        try AppCommandRunner.run(arguments + ["--data", directory.path])
    }

    @Test func listShowsTheDevelopmentAppWithoutAConfiguration() throws {
        let result = try app("list")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            KEY       STATE   TOKEN LIFETIME  CLIENT KICK POLICY  RETENTION
            imsh-dev  active  unlimited       client may ask      7d

            """)
    }

    @Test func blockThenListShowsBlockedAndUnblockLiftsIt() throws {
        let config = try directory.write("server.json", """
            {"apps": [{"appKey": "prod", "appSecret": "s", "tokenLifetimeSeconds": 5400, "offlineRetentionSeconds": 90000},
                      {"appKey": "test", "appSecret": "t", "blocked": true}]}
            """)
        let blocked = try app("block", "prod", "--config", config)
        #expect(blocked.status == 0)
        #expect(blocked.stdout == "app prod blocked\n")
        let listed = try app("list", "--config", config, "--json")
        #expect(listed.status == 0)
        #expect(listed.stdout == """
            {"appKey":"prod","state":"blocked","tokenLifetimeSeconds":5400,"clientKickPolicy":false,"offlineRetentionSeconds":90000,"secretRotatedAt":null}
            {"appKey":"test","state":"blocked","tokenLifetimeSeconds":null,"clientKickPolicy":false,"offlineRetentionSeconds":604800,"secretRotatedAt":null}

            """)

        #expect(try app("unblock", "prod", "--config", config).status == 0)
        #expect(try app("unblock", "test", "--config", config).stdout == "app test unblocked\n")
        let text = try app("list", "--config", config)
        #expect(text.stdout == """
            KEY   STATE   TOKEN LIFETIME  CLIENT KICK POLICY  RETENTION
            prod  active  1h30m           always kick         1d1h
            test  active  unlimited       always kick         7d

            """)
    }

    @Test func rotateSecretPrintsANewSecretEachTimeAndTheServerSeesIt() async throws {
        let first = try app("rotate-secret", "imsh-dev")
        let second = try app("rotate-secret", "imsh-dev")
        #expect(first.status == 0 && second.status == 0)
        let secrets = [first.stdout, second.stdout].map { String($0.dropLast()) }
        #expect(secrets.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(secrets[0] != secrets[1])
        #expect([first.stdout, second.stdout].allSatisfy { $0.hasSuffix("\n") })

        let store = try await directory.open()
        let apps = try await store.effectiveApps(configured: [.development])
        #expect(apps.first?.appSecret == secrets[1])
        await store.close()
    }

    @Test func unknownKeyExitsOneNamingIt() throws {
        for command in ["block", "unblock", "rotate-secret"] {
            let result = try app(command, "nope")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "imserver app: unknown app key 'nope': the configuration has 'imsh-dev'\n")
        }
    }

    @Test func badConfigurationExitsThreeWithEachProblemAndItsPlace() throws {
        let config = try directory.write("bad.json", """
            {"apps": [{"appKey": "a",
                       "offlineRetentionSeconds": "long"}]}
            """)
        let result = try app("list", "--config", config)
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            \(config):1:11: error: apps[0].appSecret: missing (required)
            \(config):2:39: error: apps[0].offlineRetentionSeconds: expected a whole number, found a string

            """)

        let missing = try app("list", "--config", directory.path + "/none.json")
        #expect(missing.status == 3)
        #expect(missing.stderr == "\(directory.path)/none.json: error: cannot read the file: No such file or directory\n")
    }

    @Test(arguments: [
        ([], "imserver app: missing command: list, block, unblock or rotate-secret (see 'imserver app --help')"),
        (["block"], "imserver app: block needs an app key"),
        (["list", "extra"], "imserver app: list takes no app key, got 'extra'"),
        (["frob"], "imserver app: unknown command 'frob': use list, block, unblock or rotate-secret"),
        (["block", "a", "b"], "imserver app: unexpected argument 'b' (see 'imserver app --help')"),
        (["list", "--frob"], "imserver app: unknown option '--frob' (see 'imserver app --help')"),
    ])
    func usageErrorsAreOneLineAndExitTwo(arguments: [String], message: String) throws {
        let result = try AppCommandRunner.run(arguments + ["--data", directory.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message + "\n")
    }

    @Test func unusableDataDirectoryExitsOne() throws {
        let file = try directory.write("plain-file", "x")
        let result = try AppCommandRunner.run(["list", "--data", file + "/sub"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("imserver app: cannot open server database at \(file)/sub/server.sqlite: mkdir "))
    }
}
