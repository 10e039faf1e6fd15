import IMEngine
import IMJSON
import IMProfiles
import IMTimeline

/// What `imsh test --html` draws of a failed run: its accounts' connection logs, and where on
/// them the failure goes.
///
/// The lanes come from the run's session databases, read by `AccountLogReader` as `timeline`
/// reads them, after the run's imsh has ended and before its data directory is removed; not
/// rebuilt from its `--json` events. The reader and `Timeline` already turn those logs into
/// spans, marks and kick links, so the page draws what `timeline all --html` would in that
/// directory, with no second parser of statuses; and a database holds every change, where
/// the event stream can drop some (`gap`) and falls silent at shutdown.
///
/// The stream is read for the failure alone: its step's result names the account and the
/// time it failed (`at`), where the mark goes (no later than the run's end).
struct ScenarioLogs: Sendable {
    var lanes: [LaneSource]
    /// Database files that could not be read, each `FILE: why`: named on the page, not fatal.
    var problems: [String]
    /// The failed step's account (`dev/alice-phone`); nil when it names none (a timeout, a
    /// `sleep`): then the failure is marked on every lane.
    var failedAccount: String?
    /// Milliseconds since the epoch: where the failure is marked.
    var failedAt: Int64
    /// Milliseconds since the epoch when the run's imsh ended: the timeline's end.
    var endedAt: Int64

    /// Reads the logs of every account of `profiles` that has any, in the profiles' order;
    /// `objects` are the run's `--json` lines.
    static func read(dataDirectory: String, profiles: [Profile], objects: [JSONObject], endedAt: Int64) async -> ScenarioLogs {
        var lanes: [LaneSource] = [], problems: [String] = []
        for profile in profiles {
            for account in profile.accounts {
                let directory = SessionRegistry.directory(of: account.reference, in: dataDirectory)
                let read = await AccountLogReader.read(accountDirectory: directory, appKey: profile.appKey)
                problems += read.problems
                guard !read.entries.isEmpty else { continue }
                lanes.append(LaneSource(name: account.reference.description, userID: account.userID ?? read.userID, entries: read.entries))
            }
        }
        let failed = objects.first { $0["type"] == "result" && $0["ok"] == .bool(false) }
        return ScenarioLogs(
            lanes: lanes, problems: problems, failedAccount: failed.flatMap(account(of:)),
            failedAt: min(failed?["at"]?.integerValue ?? endedAt, endedAt), endedAt: endedAt)
    }

    /// The account a failed result is about: its own (`expect`, `send`), or the first that
    /// failed of several (`connect`).
    private static func account(of result: JSONObject) -> String? {
        if let account = result["account"]?.stringValue { return account }
        guard case .array(let outcomes)? = result["accounts"] else { return nil }
        return outcomes.lazy.compactMap(\.objectValue).first { $0["ok"] == .bool(false) }?["account"]?.stringValue
    }

    /// The lanes with the failure (`FILE:LINE: message`) marked on its account's lane, which
    /// is drawn empty when that account logged nothing, or on every lane.
    func timeline(failure: String) -> Timeline {
        var sources = lanes
        if let failedAccount, !sources.contains(where: { $0.name == failedAccount }) {
            sources.append(LaneSource(name: failedAccount, userID: nil, entries: []))
        }
        var timeline = Timeline(sources, since: nil, until: endedAt)
        for index in timeline.lanes.indices where failedAccount == nil || timeline.lanes[index].name == failedAccount {
            // The status the account was in then, as its spans say.
            let status = timeline.lanes[index].spans.last { $0.start <= failedAt }?.status ?? .unconnected
            timeline.lanes[index].marks.append(TimelineMark(kind: .failure, at: failedAt, status: status, code: nil, detail: failure))
        }
        return timeline
    }
}
