/// Where imsh keeps session data (local databases, history): `--data DIR`, else
/// `$XDG_STATE_HOME/imsh` (`~/.local/state/imsh`).
public enum DataDirectory {
    public static let flag = "--data"

    /// Pure resolution: `flag` is the option's value (nil or empty when not given), `environment`
    /// looks a variable up. Nothing is checked on disk: the directory is created when first used.
    public static func resolve(flag value: String?, environment: (String) -> String?) -> ResolvedPath {
        if let value, !value.isEmpty { return ResolvedPath(path: value, source: .flag(flag)) }
        return XDGDirectory.resolve("XDG_STATE_HOME", fallback: ".local/state", subpath: "imsh", environment: environment)
    }

    /// Resolution in this process's environment.
    public static func resolve(flag value: String?) -> ResolvedPath {
        resolve(flag: value, environment: ProcessEnvironment.variable)
    }
}
