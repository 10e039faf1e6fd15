import IMCommandLine
import IMJSON
import IMProfiles
import IMProtocol
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// One worker process of `imsh bench connect --workers N`: connects the share of accounts its
/// parent writes on standard input, and reports raw figures as JSON lines on standard output.
///
/// The conversation, one JSON object a line. In: the accounts (`appKey`, `accounts` as
/// `[user, device, token, server URL]`), then `start` (CLOCK_MONOTONIC nanoseconds), then
/// `stop`. Out: `ready` once the sessions exist, `progress` while connecting, `connected` when
/// every connect call has ended, and after `stop` the result (`WorkerOutcome`).
enum ConnectWorker {
    static func run(_ share: WorkerShare, common: CommonOptions, rate: Double?) async throws(BenchError) -> WorkerOutcome {
        let (appKey, accounts) = try parseAccounts(await readInput())
        guard let server = accounts.first?.server else { throw BenchError("worker \(share): no accounts on standard input") }
        try DescriptorBudget(sessions: accounts.count, serverInProcess: false).reserve()
        let directory = try BenchDirectory.make(common.data)
        defer { directory.release() }
        let fleet = try SessionFleet(
            accounts: accounts, appKey: appKey, servers: [server], dataDirectory: directory.clients,
            threads: common.threads, timeout: common.timeout, jitter: 0)
        let existing = fleet.existingDatabases()
        let before = ProcessStatus.current()
        emit(["event": "ready"])
        guard let startNs = try? JSONValue(parsing: await readInput()).objectValue?["start"]?.integerValue else {
            await fleet.shutdown()
            throw BenchError("worker \(share): expected the start time on standard input")
        }
        // The parent's start on this process's continuous clock: CLOCK_MONOTONIC is the machine's.
        let start = ContinuousClock.now + .nanoseconds(startNs - BenchClock.nanoseconds())
        try? await Task.sleep(until: start, clock: .continuous)
        let recorder = ConnectRecorder(expected: accounts.count)
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(250))
                let state = recorder.snapshot
                emit(["event": "progress", "connected": .integer(Int64(state.connected)),
                      "failed": .integer(Int64(state.failures.values.reduce(0, +)))])
            }
        }
        await fleet.connectAll(rate: rate, recorder: recorder)
        ticker.cancel()
        _ = await ticker.result
        var outcome = WorkerOutcome(share: share, pid: getpid(), state: recorder.snapshot, start: start)
        outcome.existingDatabases = existing
        outcome.before = before
        outcome.atConnected = ProcessStatus.current()
        emit(["event": "connected"])
        _ = await readInput()
        outcome.stillConnected = fleet.connectedCount()
        let disconnecting = ContinuousClock.now
        await fleet.shutdown()
        outcome.disconnectNs = WorkerOutcome.nanoseconds(ContinuousClock.now - disconnecting)
        return outcome
    }

    /// The accounts line as the parent writes it for `accounts`.
    static func accountsLine(appKey: String, _ accounts: ArraySlice<BenchAccount>) -> String {
        let list = accounts.map { account -> JSONValue in
            [.string(account.userID ?? ""), .string(account.deviceID), .string(account.token ?? ""), .string(account.server?.url ?? "")]
        }
        return JSONValue.object(JSONObject([("appKey", .string(appKey)), ("accounts", .array(list))])).jsonText
    }

    private static func parseAccounts(_ line: String) throws(BenchError) -> (String, [BenchAccount]) {
        guard let object = (try? JSONValue(parsing: line))?.objectValue, let appKey = object["appKey"]?.stringValue,
              case .array(let list)? = object["accounts"]
        else { throw BenchError("worker: expected the accounts on standard input (it is started by imsh bench connect --workers)") }
        var accounts: [BenchAccount] = []
        for entry in list {
            guard case .array(let fields) = entry, fields.count == 4, let strings = Optional(fields.compactMap(\.stringValue)),
                  strings.count == 4, let server = try? ServerAddress(mqttURL: strings[3])
            else { throw BenchError("worker: an account on standard input is not [user, device, token, server]") }
            accounts.append(BenchAccount(userID: strings[0], deviceID: strings[1], token: strings[2], server: server))
        }
        return (appKey, accounts)
    }

    /// The next line of standard input ("" at its end), read off the cooperative pool.
    private static func readInput() async -> String {
        await BlockingCall.run { readLine(strippingNewline: true) ?? "" }
    }

    private static func emit(_ event: JSONValue) {
        CommandLineTool.writeOut(event.jsonText + "\n")
    }
}
