@testable import IMBench
import IMEngine
import MQTT
import Testing

/// The arithmetic behind the reports: percentiles, the best second, the descriptor budget.
struct MeasurementTests {
    @Test func percentilesTakeTheNearestRank() throws {
        let samples = (1...200).reversed().map { Duration.milliseconds($0) }
        let summary = try #require(LatencySummary(samples))
        #expect(summary.count == 200)
        #expect(summary.p50 == .milliseconds(100) && summary.p90 == .milliseconds(180))
        #expect(summary.p99 == .milliseconds(198) && summary.max == .milliseconds(200))
        let one = try #require(LatencySummary([.milliseconds(7)]))
        #expect(one.p50 == .milliseconds(7) && one.p99 == .milliseconds(7) && one.max == .milliseconds(7))
        #expect(LatencySummary([]) == nil)
    }

    @Test func thePeakIsTheFullestOneSecondWindow() {
        let start = ContinuousClock.now
        let at = { (milliseconds: Int) in start + .milliseconds(milliseconds) }
        // 3 in the first 100 ms, then 5 between 1,500 and 2,400 ms, one late straggler.
        let instants = [0, 50, 100, 1500, 1700, 1900, 2100, 2400, 5000].map(at).shuffled()
        #expect(ConnectionWatch.peakPerSecond(instants) == 5)
        #expect(ConnectionWatch.peakPerSecond([]) == 0)
        // A window is one second long, its end excluded.
        #expect(ConnectionWatch.peakPerSecond([at(0), at(1000)]) == 1)
    }

    @Test func theBudgetCountsSocketsAndTheDatabaseFilesTheEngineKeepsOpen() {
        // Each open database holds two descriptors: its file and its journal.
        #expect(DescriptorBudget(sessions: 1000, serverInProcess: true).needed(openFileLimit: 20_000) == 4064)
        #expect(DescriptorBudget(sessions: 1000, serverInProcess: false).needed(openFileLimit: 20_000) == 3064)
        #expect(DescriptorBudget(sessions: 1000, serverInProcess: false, withDatabases: false).needed(openFileLimit: 20_000) == 1064)
        #expect(DescriptorBudget(sessions: 1000, serverInProcess: false, withDatabases: false).openDatabases(openFileLimit: 20_000) == nil)
        // Past a fifth of the limit the engine closes databases after use: 10,000 sessions fit in 20,000.
        #expect(DescriptorBudget(sessions: 10_000, serverInProcess: false).openDatabases(openFileLimit: 20_000) == 4_000)
        #expect(DescriptorBudget(sessions: 10_000, serverInProcess: false).needed(openFileLimit: 20_000) == 10_000 + 8_000 + 64)
        // With the server's ends in the process too, the databases get the room the sockets
        // leave: 9,900 fit with 68 kept open; 10,000 do not fit at all.
        #expect(DescriptorBudget(sessions: 9_900, serverInProcess: true).openDatabases(openFileLimit: 20_000) == 68)
        #expect(DescriptorBudget(sessions: 9_900, serverInProcess: true).needed(openFileLimit: 20_000) == 20_000)
        #expect(DescriptorBudget(sessions: 10_000, serverInProcess: true).needed(openFileLimit: 20_000) == 20_000 + 128 + 64)
        // The limit to ask for: the sockets, the fewest databases kept open, the margin.
        #expect(DescriptorBudget(sessions: 1000, serverInProcess: true).sufficientLimit == 2192)
        #expect(DescriptorBudget(sessions: 30, serverInProcess: false).sufficientLimit == 30 + 60 + 64)
        #expect(DescriptorBudget(sessions: 30_000, serverInProcess: false).sufficientLimit == 30_192)
    }

    @Test func theMessageTextCarriesItsSendTime() {
        #expect(MessageLedger.text(sentAt: 123_456) == "bench 123456")
    }

    /// The drain ends only once every send call returned and every sent message has its answer.
    @Test func theLedgerIsSettledOnlyWhenEverySendReturnedAndWasAnswered() {
        let ledger = MessageLedger()
        #expect(ledger.isSettled)
        ledger.sendStarted(at: .now)
        ledger.sendStarted(at: .now)
        #expect(!ledger.isSettled && ledger.snapshot.inFlight == 2 && ledger.snapshot.unanswered == 2)
        ledger.sent(at: .now)
        ledger.sendFailed(.notConnected("gone"))
        #expect(!ledger.isSettled && ledger.snapshot.inFlight == 0 && ledger.snapshot.unanswered == 1)
        ledger.report(SendReport(cid: "c1", reasonCode: .quotaExceeded))
        #expect(ledger.isSettled && ledger.answersAndReceipts == 2)
        #expect(ledger.progress == "1 sent, 0 acknowledged, 0 received")
    }
}
