import IMProfiles
import Testing

/// `--profiles` > `$IMSH_PROFILES` > `./profiles` > XDG config; `--data` > XDG state.
struct DirectoryResolutionTests {
    static func environment(_ values: [String: String]) -> (String) -> String? {
        { values[$0] }
    }

    @Test func profilesFlagWinsOverEverything() {
        let resolved = ProfileDirectory.resolve(
            flag: "/opt/p", environment: Self.environment(["IMSH_PROFILES": "/env/p", "HOME": "/home/u"]), isDirectory: { _ in true })
        #expect(resolved == ResolvedPath(path: "/opt/p", source: .flag("--profiles")))
        #expect(resolved.description == "/opt/p (from --profiles)")
    }

    @Test func profilesEnvironmentWinsOverTheCurrentDirectory() {
        let resolved = ProfileDirectory.resolve(
            flag: nil, environment: Self.environment(["IMSH_PROFILES": "rel/p", "HOME": "/home/u"]), isDirectory: { _ in true })
        #expect(resolved == ResolvedPath(path: "rel/p", source: .environment("IMSH_PROFILES")))
        #expect(resolved.description == "rel/p (from $IMSH_PROFILES)")
    }

    @Test func currentDirectoryWhenItHasProfiles() {
        var asked: [String] = []
        let resolved = ProfileDirectory.resolve(
            flag: "", environment: Self.environment(["IMSH_PROFILES": "", "HOME": "/home/u"]),
            isDirectory: { asked.append($0); return true })
        #expect(resolved == ResolvedPath(path: "./profiles", source: .currentDirectory))
        #expect(asked == ["./profiles"])
    }

    @Test func profilesDefaultUnderXDGConfigHome() {
        let none: (String) -> Bool = { _ in false }
        #expect(ProfileDirectory.resolve(flag: nil, environment: Self.environment(["HOME": "/home/u"]), isDirectory: none)
            == ResolvedPath(path: "/home/u/.config/imsh/profiles", source: .default))
        #expect(ProfileDirectory.resolve(flag: nil, environment: Self.environment(["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg/"]), isDirectory: none)
            == ResolvedPath(path: "/cfg/imsh/profiles", source: .environment("XDG_CONFIG_HOME")))
        // A relative XDG value is ignored, as the specification says.
        #expect(ProfileDirectory.resolve(flag: nil, environment: Self.environment(["HOME": "/home/u/", "XDG_CONFIG_HOME": "cfg"]), isDirectory: none)
            == ResolvedPath(path: "/home/u/.config/imsh/profiles", source: .default))
        #expect(ProfileDirectory.resolve(flag: nil, environment: Self.environment([:]), isDirectory: none).path == "/.config/imsh/profiles")
    }

    @Test func dataFlagThenXDGStateHomeThenDefault() {
        let env = Self.environment(["HOME": "/home/u", "XDG_STATE_HOME": "/state"])
        #expect(DataDirectory.resolve(flag: "d", environment: env) == ResolvedPath(path: "d", source: .flag("--data")))
        #expect(DataDirectory.resolve(flag: nil, environment: env) == ResolvedPath(path: "/state/imsh", source: .environment("XDG_STATE_HOME")))
        #expect(DataDirectory.resolve(flag: "", environment: Self.environment(["HOME": "/home/u"]))
            == ResolvedPath(path: "/home/u/.local/state/imsh", source: .default))
        #expect(DataDirectory.resolve(flag: nil, environment: Self.environment(["HOME": "/home/u"])).description
            == "/home/u/.local/state/imsh (from default)")
    }

    @Test func processResolutionUsesTheRealEnvironment() {
        // HOME is set, or comes from the password database: either way the default is absolute.
        let home = ProcessEnvironment.variable("HOME")
        #expect(home?.hasPrefix("/") == true)
        #expect(ProcessEnvironment.isDirectory("/") && !ProcessEnvironment.isDirectory("/dev/null"))
        #expect(DataDirectory.resolve(flag: "/x").path == "/x")
    }
}
