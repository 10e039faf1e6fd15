import Foundation
import IMBench
import IMCommandLine

/// `imsh bench chaos`: imserver nodes on one PostgreSQL under faults drawn from a seed, engine
/// sessions of users with two mobile devices and a pc exchanging messages meanwhile, and a
/// ledger of what the service promised: nothing acknowledged lost or delivered twice, one
/// mobile device per user online, blocks and deactivations that hold at once, no node crash.
struct ChaosBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "chaos",
        summary: "imserver nodes on one PostgreSQL under faults drawn from a seed, with a ledger of what they promise",
        usage: "--store URL [--store-restart COMMAND] [--nodes N] [--users N] [--rate R] [--duration S] [--seed N] [--data DIR] [--timeout S] [--json]",
        options: [
            OptionSpec("--store", value: "URL", help: "the PostgreSQL database the nodes share, postgres://USER@HOST:PORT/DATABASE (required; a fresh one)"),
            OptionSpec("--store-restart", value: "COMMAND", help: "a shell command that restarts that PostgreSQL, given fast or immediate (default: no restarts)"),
            OptionSpec("--nodes", value: "N", help: "imserver nodes, 2 to 5 (default 3)"),
            OptionSpec("--users", value: "N", help: "users, each with two mobile devices and a pc (default 100)"),
            OptionSpec("--rate", value: "R", help: "messages a second, each from a random user's pc to another user (default 40)"),
            OptionSpec("--duration", value: "S", help: "faults and messages for S seconds (default 120)"),
            OptionSpec("--seed", value: "N", help: "the seed of the faults and the messages (default: drawn, and printed)"),
        ],
        epilogue: """
            Starts the nodes (imserver next to imsh) on --store, each through a fault proxy to
            PostgreSQL and reached by clients through two proxies: a clean one and one with a
            random link fault a second (delay, black hole, reset, cut); odd users use the clean
            ones. Logs every device in, then for the duration sends messages while it kills
            (SIGKILL), freezes (SIGSTOP, 12-16 s) and stops (SIGTERM) a node in turn and starts it
            again, restarts PostgreSQL or black-holes or slows a node's link to it, logs a user's
            two mobile devices in on two nodes at once, and blocks, deactivates, expires the
            tokens of and kicks users through the API. Then it heals everything, brings every
            device back (each mobile device in turn) and checks: every acknowledged message
            reached every device of its recipient once, in order per sender; two mobile devices
            of a clean user were never online together for more than 1 s, and none was online
            more than 1 s after a block or deactivation answered or logged in after it; no node
            ended by itself and none's heap passed 256 MiB. --timeout bounds the settling
            (default 120). scripts/cluster-chaos runs it on a PostgreSQL of its own.

            exit status: 0 no violation, 1 a violation (each printed) or the run could not start, 2 usage error
            """)

    var common: CommonOptions
    var settings: ChaosSettings

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader)
        if reader.parsed.value("--server") != nil { throw UsageError("--server does not apply to bench chaos: it starts its own nodes on --store") }
        let parsed = reader.parsed
        var seed = UInt64.random(in: 0...UInt64(UInt32.max))
        if let text = parsed.value("--seed") {
            guard let value = UInt64(text) else { throw UsageError("--seed wants a whole number, not '\(text)'") }
            seed = value
        }
        settings = ChaosSettings(store: try reader.required("--store", parsed.value("--store")), seed: seed)
        settings.storeRestart = parsed.value("--store-restart")
        settings.nodes = try reader.integer("--nodes", in: 2...5) ?? settings.nodes
        settings.users = try reader.integer("--users", in: 2...2_000) ?? settings.users
        settings.rate = try reader.number("--rate", in: 0.1...1_000) ?? settings.rate
        settings.duration = try reader.seconds("--duration", in: 10...86_400) ?? settings.duration
        if parsed.value("--timeout") != nil { settings.settleLimit = common.timeout }
        do throws(BenchError) {
            _ = try ChaosStoreURL(settings.store)
        } catch {
            throw UsageError(error.description)
        }
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        let directory = try BenchDirectory.make(common.data)
        defer { directory.release() }
        progress.write(common.json ? "" : "chaos: seed \(settings.seed) (--seed \(settings.seed) draws the same faults and messages)\n")
        let run = try await ChaosRun.start(settings, directory: directory.server, progress: progress)
        let origin = ContinuousClock.now
        await progress.during("chaos", status: { run.ledger.progress + ", \(run.tally.total) faults" }) {
            await run.runLanes(from: origin, until: origin + settings.duration)
        }
        let settled = await progress.during("settle", status: { run.ledger.progress }) { await run.settle() }
        let report = run.report(origin: origin, settled: settled)
        await run.shutdown()
        return report
    }
}
