import IMProtocol
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

extension Fixtures {
    /// Records a status change of `account` in `book` as the event router would, with a snapshot.
    static func recordStatus(_ status: ConnectionStatus, of account: AccountReference, in book: SessionBook) {
        let change = StatusChange(at: 1, status: status, code: nil, detail: "")
        let snapshot = SessionSnapshot(
            id: SessionID(rawValue: UInt64(abs(account.description.hashValue % 1_000_000))), label: account.description,
            state: .idle, status: status, lastChange: change, changeCount: 1, userID: nil, databaseFile: nil)
        book.record(ShellEvent(account: account, kind: .status(change)), snapshot: snapshot)
    }
}
