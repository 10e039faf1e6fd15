import Foundation
import Testing

/// Package.swift says what each target depends on, and the sources say what they import: the
/// two drift apart silently (a dependency nothing imports still builds, an import of a module
/// that comes in through another target builds too, until that one drops it). Each target's
/// dependencies must equal the project's modules its files import; a test target may also name
/// an executable it runs, which it never imports.
struct PackageManifestTests {
    /// One target of the manifest: its kind, dependencies and where its sources are.
    struct Target {
        var name: String
        var kind: String
        var dependencies: [String]
        var path: String
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The targets of Package.swift, read from its text (it declares each on one call).
    static func targets(in manifest: String) throws -> [Target] {
        let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let matches = manifest.matches(of: declaration)
        return try matches.enumerated().map { index, match in
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
            let body = manifest[match.range.upperBound..<end]
            let kind = String(match.output[1].substring ?? "")
            let name = String(match.output[2].substring ?? "")
            var dependencies: [String] = []
            if let list = body.firstMatch(of: try Regex(#"dependencies:\s*\[([^\]]*)\]"#))?.output[1].substring {
                dependencies = list.matches(of: try Regex(#""([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
            }
            let path = body.firstMatch(of: try Regex(#"path:\s*"([^"]+)""#))?.output[1].substring.map(String.init)
            return Target(name: name, kind: kind, dependencies: dependencies,
                          path: path ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)"))
        }
    }

    /// The modules named in `import` lines of the Swift files under `path`.
    static func imports(under path: String) -> Set<String> {
        let directory = root.appendingPathComponent(path)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var modules: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                      words[..<index].allSatisfy({ $0.hasPrefix("@") })
                else { continue }
                modules.insert(String(words[index + 1]))
            }
        }
        return modules
    }

    @Test func everyTargetDependsOnExactlyWhatItImports() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = try Self.targets(in: manifest)
        #expect(targets.count > 30, "Package.swift was not read: \(targets.count) targets")
        let modules = Set(targets.map(\.name))
        let executables = Set(targets.filter { $0.kind == "executableTarget" }.map(\.name))
        for target in targets where target.kind != "systemLibrary" {
            let imported = Self.imports(under: target.path).intersection(modules)
            let declared = Set(target.dependencies)
            let runs = target.kind == "testTarget" ? declared.intersection(executables) : []
            #expect(imported.subtracting(declared).isEmpty, "\(target.name) imports \(imported.subtracting(declared).sorted()) without depending on them")
            #expect(declared.subtracting(imported).subtracting(runs).isEmpty, "\(target.name) depends on \(declared.subtracting(imported).subtracting(runs).sorted()) and imports none of it")
        }
    }
}
