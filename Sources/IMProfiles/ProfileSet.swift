import IMConfig

/// The profiles that loaded, sorted by name, and every problem found on the way.
public struct ProfileSet: Sendable {
    /// The directory read, or `nil` for a single file.
    public var directory: String?
    /// Profiles without errors, sorted by name.
    public var profiles: [Profile]
    /// Names of the profiles whose files had errors, sorted.
    public var failed: [String]
    /// Errors and warnings, file by file; within a file, whole-file problems first, then by position.
    public var diagnostics: [ConfigDiagnostic]

    public init(directory: String?, profiles: [Profile], failed: [String], diagnostics: [ConfigDiagnostic]) {
        self.directory = directory
        self.profiles = profiles.sorted { $0.name < $1.name }
        self.failed = failed.sorted()
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Every account of every profile, profile by profile, each in file order.
    public var accounts: [Account] { profiles.flatMap(\.accounts) }

    public func profile(named name: String) -> Profile? {
        profiles.first { $0.name == name }
    }

    /// The account `reference` names; without a profile, the one account of that name in any profile.
    public func account(_ reference: AccountReference) throws(AccountLookupError) -> Account {
        guard let profileName = reference.profile else {
            let found = accounts.filter { $0.name == reference.account }
            guard let first = found.first else { throw .unknownAccount(reference) }
            guard found.count == 1 else { throw .ambiguous(reference.account, found.map(\.reference)) }
            return first
        }
        guard let profile = profile(named: profileName) else {
            throw failed.contains(profileName) ? .profileNotLoaded(profileName) : .unknownProfile(profileName)
        }
        guard let account = profile.account(named: reference.account) else { throw .unknownAccount(reference) }
        return account
    }

    /// Adds what another load found, keeping profiles sorted. A profile of the same name is
    /// replaced, and the diagnostics of its file with it (reloading one file).
    public mutating func merge(_ other: ProfileSet) {
        let names = Set(other.profiles.map(\.name) + other.failed)
        var files = Set(other.profiles.map(\.file) + other.diagnostics.map(\.file))
        files.formUnion(profiles.filter { names.contains($0.name) }.map(\.file))
        profiles = (profiles.filter { !names.contains($0.name) } + other.profiles).sorted { $0.name < $1.name }
        failed = (failed.filter { !names.contains($0) } + other.failed).sorted()
        diagnostics = diagnostics.filter { !files.contains($0.file) } + other.diagnostics
    }
}
