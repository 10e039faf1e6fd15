/// A directory imsh uses, with where the choice came from, so the shell can say why it reads there.
public struct ResolvedPath: Sendable, Hashable, CustomStringConvertible {
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A command-line option, such as `--profiles`.
        case flag(String)
        /// An environment variable, such as `IMSH_PROFILES` or `XDG_STATE_HOME`.
        case environment(String)
        /// `./profiles`, found in the current directory.
        case currentDirectory
        /// The built-in location under the home directory.
        case `default`

        public var description: String {
            switch self {
            case .flag(let name): return name
            case .environment(let name): return "$\(name)"
            case .currentDirectory: return "current directory"
            case .default: return "default"
            }
        }
    }

    public var path: String
    public var source: Source

    public init(path: String, source: Source) {
        self.path = path
        self.source = source
    }

    /// `PATH (from SOURCE)`.
    public var description: String { "\(path) (from \(source))" }
}
