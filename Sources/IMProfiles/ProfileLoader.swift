#if canImport(Glibc)
import Glibc
#endif
import IMConfig
import IMProcess

/// Reads profiles from files, reporting every problem as a `ConfigDiagnostic`.
///
/// A file with an error yields no profile, and never stops the other files from loading.
/// A file that holds a secret (see `ProfileReader.sensitiveFields`) and is readable by group
/// or others gets a warning, as ssh does for private keys.
public enum ProfileLoader {
    /// The largest profile file read: 1 MiB. A bigger file is refused unread.
    public static let maximumFileSize = 1 << 20
    /// The extension of profile files.
    public static let fileExtension = ".json"

    /// Loads every `*.json` file of `directory` but hidden files and directories, sorted by profile name.
    public static func load(directory: String) -> ProfileSet {
        let names: [String]
        switch listDirectory(directory) {
        case .success(let found): names = found
        case .failure(let problem):
            let diagnostic = ConfigDiagnostic(.error, file: directory, location: nil, field: "", reason: problem.reason)
            return ProfileSet(directory: directory, profiles: [], failed: [], diagnostics: [diagnostic])
        }
        var set = ProfileSet(directory: directory, profiles: [], failed: [], diagnostics: [])
        for name in names {
            set.merge(load(file: directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"))
        }
        return set
    }

    /// Loads one file; its profile's name is the file name without `.json`.
    public static func load(file path: String) -> ProfileSet {
        let name = profileName(ofFile: path)
        let diagnostics = ConfigDiagnostics(file: path)
        let profile = read(file: path, name: name, diagnostics: diagnostics)
        return ProfileSet(
            directory: nil, profiles: profile.map { [$0] } ?? [], failed: profile == nil ? [name] : [],
            diagnostics: sorted(diagnostics.all))
    }

    private static func read(file path: String, name: String, diagnostics: ConfigDiagnostics) -> Profile? {
        guard ProfileName.isValid(name) else {
            diagnostics.error("", at: nil, "'\(name)' cannot be a profile name (the file name without .json); \(ProfileName.rule)")
            return nil
        }
        let file: ProfileFile
        switch ProfileFile.read(path, limit: maximumFileSize) {
        case .success(let read): file = read
        case .failure(let problem):
            diagnostics.error("", at: nil, problem.reason)
            return nil
        }
        var reader = ProfileReader(name: name, diagnostics: diagnostics)
        let profile = reader.read(file.bytes)
        let sensitive = reader.sensitiveFields
        if !sensitive.isEmpty, file.isReadableByOthers {
            diagnostics.warning("", at: nil, """
                holds secrets (\(sensitive.joined(separator: ", "))) but is readable by group or others \
                (mode \(file.octalMode)); run chmod 600 \(path)
                """)
        }
        return profile
    }

    /// The file name without directories and `.json`.
    static func profileName(ofFile path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return base.hasSuffix(fileExtension) ? String(base.dropLast(fileExtension.count)) : base
    }

    /// Whole-file problems first, then by position; ties keep the order they were found in.
    private static func sorted(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?): return x == y ? a.offset < b.offset : x < y
            }
        }.map(\.element)
    }

    /// The names of the visible `*.json` entries of `directory` that are not directories; an entry
    /// that cannot be inspected is kept, so that loading it reports why.
    private static func listDirectory(_ directory: String) -> Result<[String], FileProblem> {
        guard let entries = ProcFile.names(in: directory) else {
            return .failure(FileProblem("cannot read the profile directory: \(String(cString: strerror(errno)))"))
        }
        var names: [String] = []
        for name in entries {
            guard !name.hasPrefix("."), name.hasSuffix(fileExtension), name.count > fileExtension.count else { continue }
            var status = stat()
            if stat("\(directory)/\(name)", &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
            names.append(name)
        }
        return .success(names.sorted())
    }
}
