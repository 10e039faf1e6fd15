import IMConfig
import IMEngine
import IMProfiles
@testable import IMShell

/// Values the renderer and completion tests share.
enum Fixtures {
    static let account = Account(
        name: "alice-phone", profile: "dev", userID: "alice", tokenSource: .serverAPI, deviceID: "alice-phone",
        settings: .builtIn)

    static func reference(_ text: String) -> AccountReference { try! AccountReference(parsing: text) }

    /// A context over profiles dev (active) and prod, as the shipped files have them.
    static func context(active: String? = "dev") -> ShellContext {
        func profile(_ name: String, _ accounts: [String]) -> Profile {
            Profile(
                name: name, file: "profiles/\(name).json", appKey: "imsh-\(name)", server: .embedded, appSecret: Secret("imsh-\(name)-secret"),
                accounts: accounts.map {
                    Account(name: $0, profile: name, userID: String($0.prefix { $0 != "-" }), tokenSource: .serverAPI, deviceID: $0, settings: .builtIn)
                })
        }
        let set = ProfileSet(
            directory: "profiles",
            profiles: [profile("dev", ["alice-phone", "alice-tablet", "bob-phone"]), profile("prod", ["carol-phone", "carol-web"])],
            failed: [], diagnostics: [])
        return ShellContext(
            profiles: set, profileDirectory: ResolvedPath(path: "./profiles", source: .currentDirectory),
            dataDirectory: ResolvedPath(path: "/tmp/data", source: .flag("--data")), active: active)
    }

    static let kicked = StatusChange(at: 0, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient, detail: "other-device-login")
}
