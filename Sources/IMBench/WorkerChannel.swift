import IMCommandLine
import IMJSON
import IMProfiles
import IMProtocol
import IMThreads
import IMTransport

/// A worker process's side of the conversation with its parent (`WorkerPool`), one JSON
/// object a line.
///
/// In: the accounts (`appKey`, `accounts` as `[user, device, token, server URL]`), then `start`
/// (CLOCK_MONOTONIC nanoseconds), then `stop`. Out: `ready` once the sessions exist, `progress`
/// while connecting, `measured` when the measured part is over, and after `stop` the result.
enum WorkerChannel {
    /// The accounts line as the parent writes it for `accounts`.
    static func accountsLine(appKey: String, _ accounts: ArraySlice<BenchAccount>) -> String {
        let list = accounts.map { account -> JSONValue in
            [.string(account.userID ?? ""), .string(account.deviceID), .string(account.token ?? ""), .string(account.server?.url ?? "")]
        }
        return JSONValue.object(JSONObject([("appKey", .string(appKey)), ("accounts", .array(list))])).jsonText
    }

    /// The app key and the accounts the parent wrote.
    static func readAccounts(_ share: WorkerShare) async throws(BenchError) -> (appKey: String, accounts: [BenchAccount]) {
        let line = await readInput()
        guard let object = (try? JSONValue(parsing: line))?.objectValue, let appKey = object["appKey"]?.stringValue,
              case .array(let list)? = object["accounts"]
        else { throw BenchError("worker \(share): expected the accounts on standard input (it is started by imsh bench --workers)") }
        var accounts: [BenchAccount] = []
        for entry in list {
            guard case .array(let fields) = entry, case let strings = fields.compactMap(\.stringValue), strings.count == 4,
                  let server = try? ServerAddress(mqttURL: strings[3])
            else { throw BenchError("worker \(share): an account on standard input is not [user, device, token, server]") }
            accounts.append(BenchAccount(userID: strings[0], deviceID: strings[1], token: strings[2], server: server))
        }
        guard !accounts.isEmpty else { throw BenchError("worker \(share): no accounts on standard input") }
        return (appKey, accounts)
    }

    /// Says `ready`, waits for the start the parent hands out, and returns it on this process's
    /// continuous clock (CLOCK_MONOTONIC is the machine's, so every worker reads the same instant).
    static func ready(_ share: WorkerShare) async throws(BenchError) -> ContinuousClock.Instant {
        emit(["event": "ready"])
        guard let startNs = (try? JSONValue(parsing: await readInput()))?.objectValue?["start"]?.integerValue else {
            throw BenchError("worker \(share): expected the start time on standard input")
        }
        return ContinuousClock.now + .nanoseconds(startNs - BenchClock.nanoseconds())
    }

    /// Says `measured` and waits for the parent's `stop` (or the end of standard input).
    static func measured() async {
        emit(["event": "measured"])
        _ = await readInput()
    }

    /// The next line of standard input ("" at its end), read off the cooperative pool.
    private static func readInput() async -> String {
        await BlockingCall.run { readLine(strippingNewline: true) ?? "" }
    }

    static func emit(_ event: JSONValue) {
        CommandLineTool.writeOut(event.jsonText + "\n")
    }
}
