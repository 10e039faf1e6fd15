import IMTransport
import MQTT

extension Session {
    /// Carries out the policy's actions, in order, without suspending.
    func perform(_ actions: [SessionStateMachine.Action]) {
        for action in actions {
            switch action {
            case let .status(status, code):
                report(status, code, detail: statusDetail)
            case let .open(generation, isReconnection):
                open(generation, isReconnection: isReconnection)
            case let .close(generation):
                close(generation)
            case let .startTimer(kind, token, delay):
                startTimer(kind, token: token, delay: delay)
                if kind == .retry {
                    publish(.retryScheduled(attempt: machine.attempt + 1, delay: delay, reason: statusDetail))
                }
            case let .cancelTimer(kind):
                activity.cancel(kind)
            case let .complete(failure):
                guard let call = call.take() else { continue }
                if var failure {
                    // The status event's words (a timeout's last attempt, say) belong to the call's answer too.
                    if !statusDetail.isEmpty { failure.detail = statusDetail }
                    call.finish(.failure(.terminated(failure)))
                } else {
                    call.finish(.success(userID ?? ""))
                }
            }
        }
        statusDetail = ""
    }

    private func startTimer(_ kind: SessionStateMachine.TimerKind, token: UInt64, delay: Duration) {
        let clock = self.clock
        let deadline = clock.now + delay
        activity.start(kind, Task {
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            self.timerFired(kind, token: token)
        })
    }

    private func timerFired(_ kind: SessionStateMachine.TimerKind, token: UInt64) {
        guard !isClosed else { return }
        switch kind {
        case .deadline:
            statusDetail = SessionTermination.timedOut.detail
            if !lastRetryableFailure.isEmpty { statusDetail += "; last attempt: \(lastRetryableFailure)" }
        case .backgroundGrace: statusDetail = "in the background longer than \(backgroundGrace)"
        case .retry, .stable: statusDetail = ""
        }
        perform(machine.timerFired(kind, token: token))
    }

    /// Starts connection attempt `generation`: a fresh token first if the last was refused, or
    /// if the source did not answer yet. A session whose user only the token names opens its
    /// database with the first token, before it dials.
    private func open(_ generation: UInt64, isReconnection: Bool) {
        assert(link == nil, "the policy closes a connection before it opens the next")
        if case .dialling(_, let task)? = activity.attempt.take() { task.cancel() }
        guard let runtime, let loop else { return }
        let source = token.needsFresh ? parameters.tokenSource : nil
        guard local != nil || source != nil else { return }
        let configuration = runtime.configuration
        var servers = parameters.servers ?? configuration.servers
        if let preferredServer { servers = [preferredServer] + servers.filter { $0 != preferredServer } }
        let request = ConnectionAttempt(
            servers: servers, loop: loop,
            options: ConnectOptions(timeout: configuration.attemptTimeout, proxy: parameters.proxy),
            stagger: configuration.serverStagger, connackTimeout: configuration.attemptTimeout,
            maximumRedirects: configuration.maximumRedirects, tls: parameters.tls ?? TLSClientConfiguration())
        let fetchTimeout = configuration.tokenFetchTimeout
        activity.attempt = .dialling(generation: generation, Task {
            var fresh: String?
            if let source {
                do throws(TokenFetchError) {
                    fresh = try await TokenFetcher.fetch(source, timeout: fetchTimeout, loop: loop)
                } catch {
                    guard let termination = error.condition.termination(detail: "\(error)") else {
                        self.attemptFinished(generation, .failed(.retryable("\(error)"), unreachable: false))
                        return
                    }
                    // The source answered: no second fetch for this refusal.
                    self.attemptFinished(generation, .failed(.terminal(termination), unreachable: false), refreshSpent: true)
                    return
                }
            }
            guard let userID = await self.userIDForAttempt(freshToken: fresh, runtime: runtime, generation: generation) else { return }
            let connect = SessionPackets.connect(
                appKey: configuration.appKey, deviceID: self.parameters.effectiveDeviceID(userID: userID),
                token: fresh ?? self.token.known ?? "", parameters: self.parameters, isReconnection: isReconnection)
            let outcome = await request.run(connect: Packet.connect(connect).encoded())
            self.attemptFinished(generation, outcome, freshToken: fresh)
        })
    }

    /// The user the attempt logs in as: the open database's, or the one `freshToken` names,
    /// whose database is opened first. nil once the attempt is over (a token that names no
    /// user, a database that does not open, or the attempt superseded meanwhile).
    private func userIDForAttempt(freshToken: String?, runtime: EngineRuntime, generation: UInt64) async -> String? {
        if let local { return local.userID }
        do throws(EngineError) {
            let userID = try Self.userID(namedBy: freshToken ?? "")
            try await openDatabase(userID: userID, reportingTo: call, runtime: runtime)
            guard activity.isDialling(generation) else { return nil }
            return userID
        } catch {
            let termination: SessionTermination = if case .terminated(let termination) = error {
                termination
            } else {
                SessionTermination(.unconnected, error.code, detail: error.description)
            }
            // A fresh token that names no user, or whose database does not open, was the
            // refresh: this refusal is final.
            attemptFinished(generation, .failed(.terminal(termination), unreachable: false), refreshSpent: freshToken != nil)
            return nil
        }
    }

    /// Attempt `generation` ended with `outcome`, unless it was superseded. `freshToken` is the
    /// token its fetch from the token source brought, to keep; `refreshSpent` says the fetch
    /// spent the one refresh without one to keep (the source refused, or its token was no good).
    private func attemptFinished(
        _ generation: UInt64, _ outcome: AttemptOutcome, freshToken: String? = nil, refreshSpent: Bool = false
    ) {
        guard activity.isDialling(generation), !isClosed else { return outcome.abandon() }
        activity.attempt = nil
        if freshToken != nil || refreshSpent { token.fetched(freshToken) }
        switch outcome {
        case .connected(let established):
            guard case .connecting = machine.phase, machine.generation == generation else { return established.abandon() }
            lastRetryableFailure = ""
            establish(established, generation: generation)
        case let .failed(failure, unreachable):
            if unreachable { preferredServer = nil }
            takeover.attemptFailed()
            fail(generation, failure)
        }
    }

    /// Tells the policy that connection `generation` failed, after the token rule: a refused
    /// token is replaced once from the token source; a second refusal in a row stops.
    func fail(_ generation: UInt64, _ failure: SessionStateMachine.Failure) {
        switch failure {
        case .terminal(let termination):
            if termination.status == .tokenIncorrect, parameters.tokenSource != nil, token.mayRefresh {
                token.expire()
                statusDetail = "\(termination.detail); fetching a fresh token"
                let actions = machine.failed(generation: generation, .retryable(statusDetail), at: clock.epochMilliseconds)
                // The status may not change (connecting stays connecting): say it all the same,
                // with the refusal's code, so the one refresh the rule allows is seen.
                if !actions.contains(where: { if case .status = $0 { true } else { false } }) {
                    report(machine.status, termination.code, detail: statusDetail)
                }
                perform(actions)
                return
            }
            statusDetail = termination.detail
        case .retryable(let detail), .moved(let detail):
            statusDetail = detail
            lastRetryableFailure = detail
        }
        performFailure(generation, failure)
    }

    private func performFailure(_ generation: UInt64, _ failure: SessionStateMachine.Failure) {
        let actions = machine.failed(generation: generation, failure, at: clock.epochMilliseconds)
        let reportsStatus = actions.contains { if case .status = $0 { true } else { false } }
        let isTerminal = if case .terminal = failure { true } else { false }
        if !isTerminal, !actions.isEmpty, !reportsStatus, machine.status == .connecting {
            // A failed attempt while connecting changes no status, so nothing is reported; the
            // log keeps it anyway, so that timelines can mark each attempt and its reason.
            local?.database.appendLogLater(ConnectionLogEntry(
                at: clock.epochMilliseconds, status: .connecting, code: nil, detail: "attempt failed: \(statusDetail)"))
        }
        perform(actions)
    }

    /// Ends connection attempt or connection `generation`, if it is still the current one.
    private func close(_ generation: UInt64) {
        switch activity.attempt {
        case .dialling(generation, let task)?:
            task.cancel()
            activity.attempt = nil
        case .linked(let link)? where link.generation == generation:
            tearDown(link)
        default:
            break
        }
    }

    /// A network change, from the engine's monitor or simulated on this session.
    ///
    /// While a simulated outage lasts, the real monitor's events are ignored.
    func networkChanged(_ event: NetworkEvent, simulated: Bool) {
        guard !isClosed else { return }
        if simulated {
            simulatedNetworkDown = event == .down
        } else if simulatedNetworkDown {
            return
        }
        takeover.reset()
        statusDetail = simulated ? "network \(event.rawValue) (simulated)" : "network \(event.rawValue)"
        let change: SessionStateMachine.NetworkChange = switch event {
        case .down: .down
        case .up: .up
        case .changed: .changed
        }
        perform(machine.network(change))
    }

    /// Simulates a network change on this session only (for tests and the shell).
    public func simulateNetwork(_ event: NetworkEvent) {
        networkChanged(event, simulated: true)
    }

    /// The app went to the background: after the grace period the session suspends (status 13).
    /// - Parameter grace: the time before suspending, this time; nil: the session's `backgroundGrace`.
    public func enterBackground(grace: Duration? = nil) {
        backgroundGrace = grace ?? parameters.backgroundGrace
        perform(machine.background(grace: grace))
    }

    /// The app came back: the backoff starts over and a suspended session reconnects at once.
    public func enterForeground() {
        statusDetail = "foreground"
        perform(machine.foreground())
    }
}
