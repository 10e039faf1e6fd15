import IMEngine
import Testing

struct SessionStateMachineTests {
    static let schedule: [Duration] = [
        .milliseconds(50), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4),
        .seconds(8), .seconds(16), .seconds(32), .seconds(64), .seconds(64), .seconds(64),
    ]

    func gaps(_ times: [Duration]) -> [Duration] { zip(times.dropFirst(), times).map { $0 - $1 } }

    @Test func delaysFollowTheScheduleExactlyOverTwelveAttempts() throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.retryable("refused")) }
        try session.connect()
        session.advance(by: .seconds(400))
        #expect(session.opens.count >= 13)
        #expect(Array(gaps(session.openTimes).prefix(12)) == Self.schedule)
        #expect(session.opens.map(\.isReconnection).prefix(3) == [false, true, true])
        #expect(session.statusNames == ["connecting"])
        #expect(session.completions.isEmpty)
    }

    @Test func aMoveConnectsAtOnceUnlessTheLastMoveDidNotLast() throws {
        var session = VirtualSession()
        session.outcome = { _ in .connect }
        try session.connect()
        session.advance(by: .seconds(5))
        session.send { $0.failed(generation: 1, .moved("sent to b"), at: 0) }
        #expect(session.openTimes == [.zero, .seconds(5)])
        // Sent back within the stable period: on the schedule, not at once.
        session.advance(by: .seconds(5))
        session.send { $0.failed(generation: 2, .moved("sent back to a"), at: 0) }
        session.advance(by: .seconds(1))
        #expect(session.openTimes == [.zero, .seconds(5), .seconds(10) + .milliseconds(50)])
        // After a connection that lasted, a move goes at once again.
        session.advance(by: .seconds(40))
        session.send { $0.failed(generation: 3, .moved("sent to c"), at: 0) }
        #expect(session.openTimes.last == .seconds(51))
        #expect(session.statusNames.filter { $0 == "connected" }.count >= 1)
    }

    @Test func connectingFromTheBackgroundSuspendsAfterTheGraceEvenUnconnected() throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.retryable("refused")) }
        session.send { $0.background() }
        try session.connect()
        session.advance(by: .seconds(119))
        #expect(session.statusNames == ["connecting"])
        session.advance(by: .seconds(2))
        #expect(session.statusNames == ["connecting", "suspend"])
        let opens = session.opens.count
        session.advance(by: .seconds(300))
        #expect(session.opens.count == opens, "a suspended session made more attempts")
    }

    @Test func aClosedMachineIgnoresADisconnect() throws {
        var session = VirtualSession()
        session.outcome = { _ in .connect }
        try session.connect()
        session.send { $0.close() }
        let statuses = session.statusNames
        session.send { $0.disconnect() }
        #expect(session.statusNames == statuses)
        #expect(session.machine.phase == .closed)
    }

    @Test func successCompletesOnceAndLaterDropsRetryFromTheStart() throws {
        var session = VirtualSession()
        session.outcome = { $0 == 1 ? .connect : .fail(.retryable("drop")) }
        try session.connect()
        #expect(session.completions.count == 1 && session.completions[0] == nil)
        session.advance(by: .seconds(31))  // past the stable period
        session.send { $0.failed(generation: 1, .retryable("connection lost"), at: 0) }
        session.advance(by: .seconds(2))
        #expect(gaps(session.openTimes) == [.seconds(31) + .milliseconds(50), .milliseconds(250), .milliseconds(500), .seconds(1)])
        #expect(session.statusNames == ["connecting", "connected", "connecting"])
        #expect(session.completions.count == 1)
    }

    @Test func twoDevicesEvictingEachOtherBackOffInsteadOfLooping() throws {
        var session = VirtualSession()
        session.outcome = { _ in .connect }
        try session.connect()
        // Each connection is taken over (a plain close) a moment after it opens.
        for _ in 0..<6 {
            session.advance(by: .milliseconds(10))
            session.send { $0.failed(generation: $0.generation, .retryable("closed by broker"), at: 0) }
            let retryAt = try #require(session.timers[.retry]).at
            session.advance(by: retryAt - session.now)
        }
        #expect(Array(gaps(session.openTimes).prefix(5)) == [
            .milliseconds(60), .milliseconds(260), .milliseconds(510), .milliseconds(1010), .milliseconds(2010),
        ])
    }

    @Test func networkChangeAndForegroundStartTheSequenceOver() throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.retryable("refused")) }
        try session.connect()
        session.advance(by: .seconds(7))  // attempts at 0, .05, .3, .8, 1.8, 3.8; next at 7.8
        let before = session.opens.count
        session.send { $0.network(.changed) }
        #expect(session.opens.count == before + 1)  // at once
        session.advance(by: .milliseconds(50))
        #expect(session.opens.count == before + 2)  // then 0.05 s, the start of the schedule

        session.advance(by: .seconds(20))
        session.send { $0.background() }
        session.send { $0.foreground() }
        let afterForeground = session.opens.count
        session.advance(by: .milliseconds(50))
        #expect(session.opens.count == afterForeground + 1)
    }

    @Test func aNetworkChangeDropsALiveLinkAndReconnectsAtOnce() {
        var machine = SessionStateMachine()
        _ = try? machine.connect(timeout: nil)
        _ = machine.connected(generation: machine.generation, server: VirtualSession.server, since: 0)
        let live = machine.generation
        let actions = machine.network(.changed)
        #expect(actions.contains(.close(generation: live)), "the link of the old network is dropped")
        #expect(actions.contains(.open(generation: live + 1, isReconnection: true)), "and a new one opened at once")
        #expect(actions.contains(.status(.connecting, nil)) && machine.phase == .connecting(attempt: 0) && machine.attempt == 0)
        #expect(machine.network(.up).isEmpty, "up on an available network changes nothing")
    }

    @Test func noNetworkPausesAndResumesAtOnce() throws {
        var session = VirtualSession()
        session.outcome = { $0 == 1 ? .connect : .fail(.retryable("drop")) }
        try session.connect()
        session.send { $0.network(.down) }
        #expect(session.closes == [1])
        session.advance(by: .seconds(600))
        #expect(session.opens.count == 1)
        #expect(session.statusNames == ["connecting", "connected", "networkUnavailable"])
        session.outcome = { _ in .connect }
        session.send { $0.network(.up) }
        #expect(session.opens.count == 2 && session.opens[1].isReconnection)
        #expect(session.statusNames.last == "connected")
    }

    @Test func connectWithoutNetworkWaitsForIt() throws {
        var session = VirtualSession()
        session.send { $0.network(.down) }
        try session.connect(timeout: .seconds(5))
        #expect(session.opens.isEmpty)
        #expect(session.statusNames == ["networkUnavailable"])
        session.advance(by: .seconds(6))
        #expect(session.completions == [.timedOut])
    }

    @Test func timeoutEndsTheCallWith34006AndNoLaterAttempt() throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.retryable("refused")) }
        try session.connect(timeout: .seconds(3))
        session.advance(by: .seconds(3))
        let attempts = session.opens.count
        #expect(session.completions == [.timedOut])
        #expect(session.statuses.last?.status == .timeout && session.statuses.last?.code == .connectTimeout)
        session.advance(by: .seconds(600))
        #expect(session.opens.count == attempts)
        #expect(session.machine.phase == .stopped(.timedOut))
    }

    @Test func timeoutDoesNotApplyOnceConnected() throws {
        var session = VirtualSession()
        session.outcome = { $0 == 1 ? .connect : .fail(.retryable("drop")) }
        try session.connect(timeout: .seconds(3))
        session.send { $0.failed(generation: 1, .retryable("lost"), at: 0) }
        session.advance(by: .seconds(60))
        #expect(session.completions == [nil])
        #expect(!session.statusNames.contains("timeout"))
        #expect(session.opens.count > 5)
    }

    static let terminals: [SessionTermination] = [
        SessionTermination(.tokenIncorrect, .tokenIncorrect), SessionTermination(.tokenIncorrect, .tokenExpired),
        SessionTermination(.disconnException, .userBlocked), SessionTermination(.userAbandon, nil),
        SessionTermination(.unconnected, .appBlockedOrDeleted), SessionTermination(.kickedOfflineByOtherClient, .kickedByOtherClient),
        SessionTermination(.kickedOfflineByOtherClient, .otherDeviceLogin), SessionTermination(.proxyUnavailable, .proxyUnavailable),
    ]

    @Test(arguments: terminals) func noRetryAfterATerminalError(termination: SessionTermination) throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.terminal(termination)) }
        try session.connect()
        session.advance(by: .seconds(600))
        #expect(session.opens.count == 1)
        #expect(session.completions == [termination])
        #expect(session.statuses.last?.status == termination.status)
        #expect(session.statuses.last?.code == termination.code)
    }

    @Test(arguments: terminals) func terminalWhileConnectedGoesToTheListenerOnly(termination: SessionTermination) throws {
        var session = VirtualSession()
        session.outcome = { _ in .connect }
        try session.connect()
        session.send { $0.failed(generation: 1, .terminal(termination), at: 0) }
        session.advance(by: .seconds(600))
        #expect(session.opens.count == 1)
        #expect(session.completions == [nil])
        #expect(session.statuses.last?.status == termination.status)
    }

    @Test func backgroundGraceSuspendsAndForegroundReconnects() throws {
        var session = VirtualSession(.init(backgroundGrace: .seconds(120)))
        session.outcome = { _ in .connect }
        try session.connect()
        session.send { $0.background() }
        session.advance(by: .seconds(119))
        #expect(session.closes.isEmpty)
        session.advance(by: .seconds(1))
        #expect(session.closes == [1])
        #expect(session.statusNames.suffix(1) == ["suspend"])
        session.advance(by: .seconds(600))
        #expect(session.opens.count == 1)
        session.send { $0.foreground() }
        #expect(session.opens.count == 2 && session.opens[1].isReconnection)
        #expect(session.statusNames.suffix(2) == ["connecting", "connected"])
    }

    @Test func shortBackgroundChangesNothing() throws {
        var session = VirtualSession()
        session.outcome = { _ in .connect }
        try session.connect()
        session.send { $0.background() }
        session.advance(by: .seconds(60))
        session.send { $0.foreground() }
        session.advance(by: .seconds(600))
        #expect(session.closes.isEmpty && session.opens.count == 1)
    }

    @Test func disconnectStopsEverythingAndEndsAPendingCall() throws {
        var session = VirtualSession()
        session.outcome = { _ in .fail(.retryable("refused")) }
        try session.connect(timeout: .seconds(30))
        session.advance(by: .seconds(1))
        session.send { $0.disconnect() }
        #expect(session.completions == [.signedOut])
        #expect(session.statusNames.last == "signOut")
        let attempts = session.opens.count
        session.advance(by: .seconds(600))
        #expect(session.opens.count == attempts)
        #expect(session.completions.count == 1)
    }

    @Test func secondConnectWhileActiveIsRefused() throws {
        var session = VirtualSession()
        try session.connect()
        #expect(throws: SessionStateMachine.ConnectRefusal.alreadyActive(.connecting(attempt: 0))) { try session.connect() }
        #expect(session.opens.count == 1)
    }

    @Test func staleGenerationsAndTimersChangeNothing() throws {
        var session = VirtualSession()
        try session.connect()
        session.send { $0.failed(generation: 1, .retryable("x"), at: 0) }
        session.advance(by: .milliseconds(50))
        #expect(session.opens.map(\.generation) == [1, 2])
        let statusCount = session.statuses.count
        session.send { $0.failed(generation: 1, .terminal(.timedOut), at: 0) }
        session.send { $0.connected(generation: 1, server: VirtualSession.server, since: 0) }
        session.send { $0.timerFired(.retry, token: 1) }
        #expect(session.statuses.count == statusCount && session.opens.count == 2)
        #expect(session.machine.phase == .connecting(attempt: 1))
    }

    @Test func jitterStaysWithinItsBounds() throws {
        let jitter = 0.3
        var schedule = BackoffSchedule(jitter: jitter)
        var random = SplitMix64(seed: 42)
        var spread: Set<Duration> = []
        for attempt in 0..<12 {
            let base = schedule.baseDelay(forAttempt: attempt)
            for _ in 0..<200 {
                let delay = schedule.delay(forAttempt: attempt, using: &random)
                #expect(delay >= base * (1 - jitter) && delay <= base * (1 + jitter))
                spread.insert(delay)
            }
        }
        #expect(spread.count > 1000)  // jitter really varies the waits
        schedule.jitter = 0
        #expect(schedule.delay(forAttempt: 3, using: &random) == .seconds(1))
    }
}
