import IMChaos
import IMCommandLine
import IMHTTP
import IMTransport

#if canImport(Glibc)
import Glibc
#endif

/// `imchaos --target HOST:PORT [--listen HOST:PORT] [--seed N] [--every DURATION] [--faults LIST] [--json]`.
enum ChaosCommand {
    static let spec = CommandSpec(
        name: "imchaos",
        version: imshVersion,
        summary: "a TCP proxy that injects network faults between MQTT clients and their server",
        usage: ["--target HOST:PORT [--listen HOST:PORT] [--seed N] [--every DURATION] [--faults LIST] [--json]"],
        options: [
            OptionSpec("--target", value: "HOST:PORT", help: "the server to forward to (required)"),
            OptionSpec("--listen", value: "HOST:PORT", help: "where clients connect (default 127.0.0.1:0: a free port)"),
            OptionSpec("--seed", value: "N", help: "seed of the random faults and of loss (default: drawn, and printed)"),
            OptionSpec("--every", value: "DURATION", help: "time between random faults, as 1s, 500ms, 2m (default 1s)"),
            OptionSpec("--faults", value: "LIST", help: "kinds drawn, comma-separated (default delay,throttle,close,blackhole,cut)"),
            OptionSpec("--json", help: "print JSON objects, one a line"),
            CompletionScript.option,
        ],
        epilogue: """
            Random faults start at once when --seed, --every or --faults is given; else with 'random on'.

            \(commands)
            End of input stops the commands, not the proxy. See imchaos(1).
            exit status: 0 after quit, 1 cannot listen, 2 usage error
            """)

    /// The commands read on standard input, as `help` prints them.
    static let commands = """
        commands (standard input, one a line):
          list                      the open connections and their faults
          fault all|ID KIND         put a fault on every connection (and new ones) or on one;
                                    KIND: pass, blackhole, close, cut, delay MS, throttle BYTES-PER-SECOND,
                                    loss PERCENT
          random on|off             start or stop random faults
          help                      this list
          quit                      stop the proxy and exit

        """

    /// What the command line asks for.
    struct Options {
        var listen: HostPort
        var target: HostPort
        var random: RandomFaults
        var startsRandom: Bool
        var json: Bool
    }

    static func main(arguments: [String]) async -> Never {
        let parsed = CommandLineTool.parseOrExit(spec, arguments: arguments)
        let options: Options
        do {
            options = try Self.options(parsed)
        } catch {
            CommandLineTool.fail(spec, error)
        }
        let output = ChaosOutput(json: options.json)
        let proxy: FaultProxy
        do {
            proxy = try FaultProxy(
                host: options.listen.host, port: options.listen.port, targetHost: options.target.host,
                targetPort: options.target.port, seed: options.random.seed, onEvent: output.event)
        } catch {
            CommandLineTool.writeError("imchaos: \(error)\n")
            exit(1)
        }
        output.listening(proxy.address, target: options.target, plan: options.random, randomOn: options.startsRandom)
        if options.startsRandom { await proxy.startRandomFaults(options.random) }
        await ProxyConsole(proxy: proxy, plan: options.random, output: output).run()
        await proxy.stop()
        exit(0)
    }

    static func options(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)' (see 'imchaos --help')")
        }
        let reader = OptionReader(parsed: parsed, command: "imchaos")
        guard let target = try reader.endpoint("--target") else {
            throw UsageError("missing --target HOST:PORT: the server to forward to")
        }
        let listen = try reader.endpoint("--listen", default: "127.0.0.1:0", listening: true)!
        var seed = UInt64.random(in: 0...UInt64(UInt32.max))
        if let text = parsed.value("--seed") {
            guard let value = UInt64(text) else { throw UsageError("--seed wants a whole number, not '\(text)'") }
            seed = value
        }
        let every = try parsed.value("--every").map { text throws(UsageError) in try ChaosDuration.parse(text, option: "--every") }
        let kinds = try parsed.value("--faults").map { text throws(UsageError) in try faultKinds(text) }
        let plan = RandomFaults(
            seed: seed, every: every ?? .seconds(1), kinds: kinds ?? [.delay, .throttle, .close, .blackhole, .cut])
        let startsRandom = ["--seed", "--every", "--faults"].contains { parsed.value($0) != nil }
        return Options(listen: listen, target: target, random: plan, startsRandom: startsRandom, json: parsed.has("--json"))
    }

    /// `delay,throttle,close`: each a kind, at least one.
    static func faultKinds(_ text: String) throws(UsageError) -> [FaultKind] {
        var kinds: [FaultKind] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = FaultKind(rawValue: String(name)) else {
                let known = FaultKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--faults: unknown fault '\(name)': use \(known)")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }
}
