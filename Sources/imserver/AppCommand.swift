import IMCommandLine
import IMServer

#if canImport(Glibc)
import Glibc
#endif

/// `imserver app COMMAND [KEY]`: the apps' run-time state, kept in
/// the data directory's database, which a running server on the same directory re-reads.
enum AppCommand {
    static let spec = CommandSpec(
        name: "imserver app",
        version: imshVersion,
        summary: "list the apps, block or unblock one, rotate its secret",
        usage: Command.allCases.map(\.usage),
        options: [
            OptionSpec("--data", value: "DIR", help: "the server's data directory (default $XDG_STATE_HOME/imserver, else ~/.local/state/imserver)"),
            OptionSpec("--store", value: "URL", help: "the PostgreSQL database of the server's nodes (postgres://...), instead of --data"),
            OptionSpec("--config", value: "FILE", help: "the server's configuration file (default: the development app only)"),
            OptionSpec("--json", help: "print JSON objects, one a line"),
        ],
        epilogue: "commands:\n\(Command.listing)\n\n" + """
            A server running on the same data directory (every node on the same --store) notices a change within a second.
            exit status: 0 done, 1 unknown app key or database error, 2 usage error, 3 bad configuration file
            """)

    /// The commands, as the first argument names them.
    static var commandNames: [String] { Command.allCases.map(\.rawValue) }

    /// Exit status of a runtime failure (unknown key, database error).
    static let failureExitStatus: Int32 = 1

    /// What the command line asks for.
    enum Action: Equatable {
        case list
        case block(String)
        case unblock(String)
        case rotateSecret(String)
    }

    /// `imserver app` in imserver's command table; completion offers its commands as subcommands, each with its options.
    static let subcommand = Subcommand(
        spec, synopsis: "\(commandNames.joined(separator: "|")) [KEY] [--data DIR | --store URL] [--config FILE]",
        completion: CompletionTree(spec, subcommands: commandNames.map {
            CompletionTree(name: $0, summary: spec.summary, options: CompletionTree(spec).options)
        }),
        run: { await main($0) })

    /// Runs `imserver app` with the arguments after `app` and exits.
    static func main(_ arguments: [String]) async -> Never {
        let parsed = CommandLineTool.parseOrExit(spec, arguments: arguments)
        let action: Action
        do {
            action = try Self.action(parsed.positionals)
        } catch {
            CommandLineTool.fail(spec, error)
        }
        let configuration = ConfigurationFile.loadOrExit(parsed.value("--config"))
        let output = AppOutput(json: parsed.has("--json"))
        let location: StoreLocation
        do {
            location = try ServeCommand.storeLocation(parsed)
        } catch {
            CommandLineTool.fail(spec, error)
        }
        do {
            let store = try await location.open(nodeName: "imserver-app", connections: 1)
            var failure: (any Error)?
            do {
                try await run(action, store: store, apps: configuration.apps, output: output)
            } catch {
                failure = error
            }
            await store.close()
            if let failure { throw failure }
            exit(0)
        } catch {
            CommandLineTool.writeError("\(spec.name): \(error)\n")
            exit(failureExitStatus)
        }
    }

    /// The action named by the positional arguments.
    static func action(_ positionals: [String]) throws(UsageError) -> Action {
        guard let word = positionals.first else {
            throw UsageError("missing command: \(UsageError.choices(commandNames)) (see '\(spec.name) --help')")
        }
        let key = positionals.dropFirst().first
        guard positionals.count <= 2 else {
            throw UsageError("unexpected argument '\(positionals[2])' (see '\(spec.name) --help')")
        }
        guard let command = Command(rawValue: word) else {
            throw UsageError("unknown command '\(word)': use \(UsageError.choices(commandNames))")
        }
        switch (command, key) {
        case (.list, nil): return .list
        case (.list, let key?): throw UsageError("\(word) takes no app key, got '\(key)'")
        case (_, nil): throw UsageError("\(word) needs an app key")
        case (.block, let key?): return .block(key)
        case (.unblock, let key?): return .unblock(key)
        case (.rotateSecret, let key?): return .rotateSecret(key)
        }
    }

    private static func run(_ action: Action, store: any ServerStore, apps: [AppSettings], output: AppOutput) async throws {
        switch action {
        case .list:
            let overrides = try await store.appOverrides()
            output.list(AppOverride.effectiveApps(configured: apps, overrides: overrides), overrides: overrides)
        case .block(let key):
            try requireKnown(key, in: apps)
            try await store.setAppBlocked(key, true)
            output.changed(key, blocked: true)
        case .unblock(let key):
            try requireKnown(key, in: apps)
            try await store.setAppBlocked(key, false)
            output.changed(key, blocked: false)
        case .rotateSecret(let key):
            try requireKnown(key, in: apps)
            output.rotated(key, secret: try await store.rotateSecret(key, now: currentMillis()))
        }
    }

    struct UnknownAppKey: Error, CustomStringConvertible {
        var key: String
        var known: [String]
        var description: String {
            let names = known.isEmpty ? "no apps" : known.map { "'\($0)'" }.joined(separator: ", ")
            return "unknown app key '\(key)': the configuration has \(names)"
        }
    }

    private static func requireKnown(_ key: String, in apps: [AppSettings]) throws(UnknownAppKey) {
        guard apps.contains(where: { $0.appKey == key }) else { throw UnknownAppKey(key: key, known: apps.map(\.appKey)) }
    }

    private static func currentMillis() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
