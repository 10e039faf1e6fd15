/// The XDG base directory rule: `$VARIABLE` when it is an absolute path, else `$HOME/FALLBACK`.
enum XDGDirectory {
    /// `SUBPATH` under the base directory of `variable`, with where the base came from.
    static func resolve(
        _ variable: String, fallback: String, subpath: String, environment: (String) -> String?
    ) -> ResolvedPath {
        // The specification ignores relative values; an empty one counts as unset.
        if let base = environment(variable), base.hasPrefix("/") {
            return ResolvedPath(path: join(base, subpath), source: .environment(variable))
        }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return ResolvedPath(path: join(join(home, fallback), subpath), source: .default)
    }

    static func join(_ base: String, _ rest: String) -> String {
        var base = Substring(base)
        while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
        return base == "/" ? "/\(rest)" : "\(base)/\(rest)"
    }
}
