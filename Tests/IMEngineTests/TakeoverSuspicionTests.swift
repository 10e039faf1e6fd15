import IMEngine
import Testing

/// The takeover rule alone: closes right after login, in a row, without a network change.
struct TakeoverSuspicionTests {
    @Test func theThirdQuickCloseInARowStopsWithAKickAndCountsStartOver() {
        var rule = TakeoverSuspicion()
        #expect(rule.serverClosed(livedMilliseconds: 50) == nil)
        #expect(rule.serverClosed(livedMilliseconds: 250) == nil)
        let termination = rule.serverClosed(livedMilliseconds: 500)
        #expect(termination?.status == .kickedOfflineByOtherClient)
        #expect(termination?.code == .kickedByOtherClient)
        #expect(termination?.detail.contains("takeover suspected") == true)
        #expect(rule.count == 0)
    }

    @Test func aLongLinkOrANetworkChangeStartsTheCountOver() {
        var rule = TakeoverSuspicion()
        _ = rule.serverClosed(livedMilliseconds: 50)
        _ = rule.serverClosed(livedMilliseconds: 50)
        #expect(rule.serverClosed(livedMilliseconds: TakeoverSuspicion.window) == nil)
        #expect(rule.count == 0)
        _ = rule.serverClosed(livedMilliseconds: 50)
        _ = rule.serverClosed(livedMilliseconds: 50)
        rule.reset()
        #expect(rule.serverClosed(livedMilliseconds: 50) == nil)
        #expect(rule.count == 1)
    }

    /// A stopped broker also closes without DISCONNECT, but the attempts after it fail.
    @Test func aFailedAttemptBetweenClosesStartsTheCountOver() {
        var rule = TakeoverSuspicion()
        _ = rule.serverClosed(livedMilliseconds: 50)
        _ = rule.serverClosed(livedMilliseconds: 50)
        rule.attemptFailed()
        #expect(rule.count == 0)
        #expect(rule.serverClosed(livedMilliseconds: 50) == nil)
        #expect(rule.serverClosed(livedMilliseconds: 50) == nil)
        #expect(rule.serverClosed(livedMilliseconds: 50) != nil)
    }

    @Test func aLimitOfZeroNeverSuspects() {
        var rule = TakeoverSuspicion(limit: 0)
        for _ in 0..<10 { #expect(rule.serverClosed(livedMilliseconds: 10) == nil) }
    }
}
