import Foundation
import IMCommandLine
import IMProfiles

/// One scenario file of `imsh test`: a script whose commands were all checked against the
/// profiles (commands, states, accounts, profiles) before any scenario runs.
struct Scenario: Sendable {
    /// One command of the file: its line and its words, to name the step a run was on.
    struct Step: Sendable {
        var line: Int
        var text: String
    }

    /// The path as given or found (`DIR/NAME.imsh`): the scenario's name in every report.
    let path: String
    let steps: [Step]
    /// The profiles it uses (the one active at start, those of `use` and of `PROFILE/ACCOUNT`).
    let profiles: Set<String>
    /// Some step draws from the seed (`link ACCOUNT loss`): the run prints it.
    let isRandom: Bool

    /// The file ending that marks a scenario in a directory.
    static let fileExtension = ".imsh"

    /// The scenario files `paths` name: a file as it is, a directory each `*.imsh` in it by
    /// name. A path that does not exist, or a directory without scenarios, is a usage error.
    static func files(_ paths: [String]) throws(UsageError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UsageError("\(path): no such file or directory")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(fileExtension) }.sorted()
            guard !names.isEmpty else { throw UsageError("\(path): a directory with no *\(fileExtension) scenario in it") }
            let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
            files += names.map { "\(directory)/\($0)" }
        }
        return files
    }

    /// Reads and checks the file at `path` against the profiles of `base`, starting with its
    /// active profile; every problem found as `FILE:LINE: message`, the whole file checked.
    static func load(_ path: String, base: ShellContext) -> Result<Scenario, ScenarioErrors> {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return .failure(ScenarioErrors(["\(path): cannot be read as UTF-8 text"]))
        }
        let tokenized: [TokenizedCommand]
        do {
            tokenized = try CommandTokenizer.commands(in: text)
        } catch {
            return .failure(ScenarioErrors(["\(path):\(error.line ?? 1): \(error.message)"]))
        }
        // A context of its own, so that `use` moves this scenario's active profile only.
        let context = ShellContext(
            profiles: base.profiles, profileDirectory: base.profileDirectory, dataDirectory: base.dataDirectory, active: base.activeProfile)
        var errors: [String] = []
        var used: Set<String> = base.activeProfile.map { [$0] } ?? []
        var isRandom = false
        for command in tokenized {
            let problem: String?
            do throws(CommandSyntaxError) {
                let parsed = try CommandParser.parse(command.words)
                if case .link(_, .loss) = parsed { isRandom = true }
                problem = check(parsed, in: context, used: &used)
            } catch {
                problem = error.message
            }
            if let problem { errors.append("\(path):\(command.line): \(problem)") }
        }
        guard errors.isEmpty else { return .failure(ScenarioErrors(errors)) }
        let steps = tokenized.map { Step(line: $0.line, text: $0.words.joined(separator: " ")) }
        return .success(Scenario(path: path, steps: steps, profiles: used, isRandom: isRandom))
    }

    /// Why `command` cannot run in `context` (an unknown profile or account), or nil.
    private static func check(_ command: ShellCommand, in context: ShellContext, used: inout Set<String>) -> String? {
        do throws(ShellError) {
            if case .use(let name) = command {
                _ = try context.profile(named: name)
                context.setActiveProfile(name)
                used.insert(name)
            }
            if case .some(let profile) = command.allOfProfile {
                let found = if let profile { try context.profile(named: profile) } else { try context.activeOrFail() }
                used.insert(found.name)
            }
            for reference in command.namedAccounts {
                if let profile = try context.account(reference).reference.profile { used.insert(profile) }
            }
            return nil
        } catch {
            return error.message
        }
    }
}

/// The problems of one scenario file, each `FILE:LINE: message`.
struct ScenarioErrors: Error, Sendable {
    var messages: [String]

    init(_ messages: [String]) {
        self.messages = messages
    }
}
