import IMConfig
import IMProfiles

/// What `profiles` shows: where profiles and data are, what loaded, and every problem found.
public struct ProfilesReport: Sendable {
    public var profileDirectory: ResolvedPath
    public var dataDirectory: ResolvedPath
    public var active: String?
    public var profiles: [Profile]
    public var failed: [String]
    public var diagnostics: [ConfigDiagnostic]
    /// Remarks that are not problems of a file, such as a default directory that does not exist yet.
    public var notes: [String]

    public init(
        profileDirectory: ResolvedPath, dataDirectory: ResolvedPath, active: String?, profiles: [Profile],
        failed: [String], diagnostics: [ConfigDiagnostic], notes: [String]
    ) {
        self.profileDirectory = profileDirectory
        self.dataDirectory = dataDirectory
        self.active = active
        self.profiles = profiles
        self.failed = failed
        self.diagnostics = diagnostics
        self.notes = notes
    }
}
