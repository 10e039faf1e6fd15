import IMEngine
import IMProtocol
import Testing

/// The machine's phase is the session's state: each state carries its data, set by the
/// event that entered it, so nothing is kept in step by hand.
struct SessionStateTests {
    @Test func eachStateCarriesTheDataOfTheEventThatEnteredIt() throws {
        var session = VirtualSession()
        session.outcome = { $0 == 1 ? .fail(.retryable("refused")) : .hang }
        try session.machine.prepare()
        #expect(session.machine.phase == .preparing)
        session.now = .seconds(5)
        try session.connect()
        // The first attempt failed at 5 s: the retry is planned 50 ms later, and the state says when.
        #expect(session.machine.phase == .waiting(attempt: 1, retryAt: 5_050))
        session.advance(by: .milliseconds(50))
        #expect(session.machine.phase == .connecting(attempt: 1))
        session.send { $0.connected(generation: 2, server: VirtualSession.server, since: 5_070) }
        #expect(session.machine.phase == .connected(server: VirtualSession.server, since: 5_070, tls: nil))
        session.send { $0.disconnect() }
        #expect(session.machine.phase == .signedOut)
        _ = session.machine.close()
        #expect(session.machine.phase == .closed)
    }

    @Test func aFailedPreparationEndsStoppedOrIdle() throws {
        var machine = SessionStateMachine()
        try machine.prepare()
        #expect(throws: SessionStateMachine.ConnectRefusal.alreadyActive(.preparing)) { try machine.prepare() }
        let refused = SessionTermination(.tokenIncorrect, .tokenExpired)
        #expect(machine.preparationFailed(refused) == [.status(.tokenIncorrect, .tokenExpired)])
        #expect(machine.phase == .stopped(refused))
        try machine.prepare()
        #expect(machine.preparationFailed(nil).isEmpty)
        #expect(machine.phase == .idle)
    }
}
