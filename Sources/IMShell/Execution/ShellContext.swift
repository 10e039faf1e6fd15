import IMConfig
import IMProfiles
import Synchronization

/// What the shell started with (profiles and directories) and the active profile, shared by
/// the executor, the prompt and completion.
public final class ShellContext: Sendable {
    public let profiles: ProfileSet
    public let profileDirectory: ResolvedPath
    public let dataDirectory: ResolvedPath
    /// Remarks about the set-up that are not problems of a file.
    public let notes: [String]
    private let active: Mutex<String?>

    public init(profiles: ProfileSet, profileDirectory: ResolvedPath, dataDirectory: ResolvedPath, notes: [String] = [], active: String?) {
        self.profiles = profiles
        self.profileDirectory = profileDirectory
        self.dataDirectory = dataDirectory
        self.notes = notes
        self.active = Mutex(active)
    }

    /// The profile that account names without a profile, `all` and the prompt refer to.
    public var activeProfile: String? { active.withLock { $0 } }

    func setActiveProfile(_ name: String) {
        active.withLock { $0 = name }
    }

    /// The loaded profile called `name`, or why there is none.
    func profile(named name: String) throws(ShellError) -> Profile {
        if let profile = profiles.profile(named: name) { return profile }
        if profiles.failed.contains(name) {
            throw ShellError("profile \(name) did not load; fix the errors in its file (see 'profiles')", profileError: true)
        }
        let loaded = profiles.profiles.map(\.name)
        let hint = loaded.isEmpty ? "no profile loaded from \(profileDirectory.path)" : "loaded: \(loaded.joined(separator: ", "))"
        throw ShellError("no profile named \(name) (\(hint))", profileError: true)
    }

    /// The active profile, or why there is none.
    func activeOrFail() throws(ShellError) -> Profile {
        guard let name = activeProfile else {
            let loaded = profiles.profiles.map(\.name)
            let why = loaded.isEmpty
                ? "none loaded from \(profileDirectory); see 'profiles' and imsh-profile(5)"
                : "choose one with 'use NAME' (loaded: \(loaded.joined(separator: ", ")))"
            throw ShellError("no profile is active: " + why, profileError: true)
        }
        return try profile(named: name)
    }

    /// The account `reference` names: in the active profile first when it names no profile.
    func account(_ reference: AccountReference) throws(ShellError) -> Account {
        if reference.profile == nil, let active = activeProfile, let account = profiles.profile(named: active)?.account(named: reference.account) {
            return account
        }
        if let profile = reference.profile { _ = try self.profile(named: profile) }
        do {
            return try profiles.account(reference)
        } catch .unknownAccount(let unknown) where unknown.profile == nil && activeProfile != nil {
            let names = profiles.profile(named: activeProfile!)?.accounts.map(\.name) ?? []
            throw ShellError("no account named \(unknown.account) in \(activeProfile!) (\(names.isEmpty ? "it has none" : "it has " + names.joined(separator: ", "))); write PROFILE/ACCOUNT for another profile")
        } catch {
            throw ShellError("\(error)", profileError: error.isProfileError)
        }
    }

    /// The report `profiles` shows.
    func report() -> ProfilesReport {
        ProfilesReport(
            profileDirectory: profileDirectory, dataDirectory: dataDirectory, active: activeProfile,
            profiles: profiles.profiles, failed: profiles.failed, diagnostics: profiles.diagnostics, notes: notes)
    }
}

extension AccountLookupError {
    /// A profile that did not load is a profile error; an unknown name is the user's typo.
    var isProfileError: Bool {
        if case .profileNotLoaded = self { return true }
        return false
    }
}
