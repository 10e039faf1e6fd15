import IMConfig
import IMProfiles

/// Everything imsh works out before the first command: directories, profiles, the active one.
public struct ShellStartup: Sendable {
    public let context: ShellContext
    /// Problems of the profile files, to show at start.
    public var diagnostics: [ConfigDiagnostic] { context.profiles.diagnostics }
    /// A profile has errors, or the directory named cannot be read (exit status 3 for scripts).
    public let hasProfileErrors: Bool
    /// Why the profile asked for with `--profile` cannot be active, if it cannot.
    public let activeProfileError: String?

    /// Resolves and loads, with `environment` and `isDirectory` standing for the process's.
    public init(
        options: ShellOptions, environment: (String) -> String? = ProcessEnvironment.variable,
        isDirectory: (String) -> Bool = ProcessEnvironment.isDirectory
    ) {
        let profileDirectory = ProfileDirectory.resolve(flag: options.profiles, environment: environment, isDirectory: isDirectory)
        let dataDirectory = DataDirectory.resolve(flag: options.data, environment: environment)
        var notes: [String] = []
        let set: ProfileSet
        if profileDirectory.source == .default, !isDirectory(profileDirectory.path) {
            // A new user has no profiles yet: say where they go rather than report an error.
            set = ProfileSet(directory: profileDirectory.path, profiles: [], failed: [], diagnostics: [])
            notes.append("no profiles yet: \(profileDirectory.path) does not exist; create it, or give --profiles DIR (see imsh-profile(5))")
        } else {
            set = ProfileLoader.load(directory: profileDirectory.path)
            if set.profiles.isEmpty, set.failed.isEmpty, !set.hasErrors {
                notes.append("no profiles in \(profileDirectory.path): add NAME.json files (see imsh-profile(5))")
            }
        }
        var active = set.profiles.first?.name
        var activeError: String?
        if let wanted = options.profile {
            if set.profile(named: wanted) != nil {
                active = wanted
            } else {
                let why = set.failed.contains(wanted) ? "did not load (errors above)" : "is not in \(profileDirectory.path)"
                activeError = "--profile \(wanted): the profile \(why)"
                // None active rather than the first: a script meant for one environment must
                // not run against another because of a typo.
                active = nil
            }
        }
        context = ShellContext(
            profiles: set, profileDirectory: profileDirectory, dataDirectory: dataDirectory, notes: notes, active: active)
        hasProfileErrors = set.hasErrors || activeError != nil
        activeProfileError = activeError
    }
}
