/// Where profiles are read from: `--profiles DIR`, else `$IMSH_PROFILES`, else `./profiles` when
/// it is a directory, else `$XDG_CONFIG_HOME/imsh/profiles` (`~/.config/imsh/profiles`).
public enum ProfileDirectory {
    public static let flag = "--profiles"
    public static let environmentVariable = "IMSH_PROFILES"
    public static let localPath = "./profiles"

    /// Pure resolution: `flag` is the option's value (nil or empty when not given), `environment`
    /// looks a variable up (empty counts as unset), `isDirectory` tells whether a path is one.
    /// `HOME` comes from `environment`; without it the default lies under `/`.
    public static func resolve(
        flag value: String?, environment: (String) -> String?, isDirectory: (String) -> Bool
    ) -> ResolvedPath {
        if let value, !value.isEmpty { return ResolvedPath(path: value, source: .flag(flag)) }
        if let value = environment(environmentVariable), !value.isEmpty {
            return ResolvedPath(path: value, source: .environment(environmentVariable))
        }
        if isDirectory(localPath) { return ResolvedPath(path: localPath, source: .currentDirectory) }
        return XDGDirectory.resolve("XDG_CONFIG_HOME", fallback: ".config", subpath: "imsh/profiles", environment: environment)
    }

    /// Resolution in this process: its environment and file system.
    public static func resolve(flag value: String?) -> ResolvedPath {
        resolve(flag: value, environment: ProcessEnvironment.variable, isDirectory: ProcessEnvironment.isDirectory)
    }
}
