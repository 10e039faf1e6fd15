import IMProtocol
import IMTransport

extension SessionStateMachine {
    /// A connect call: starts attempts unless one is already under way or connected.
    /// - Parameter timeout: bounds the first connection; `nil` or <= 0 retries until connected or stopped.
    public mutating func connect(timeout: Duration?) throws(ConnectRefusal) -> [Action] {
        switch phase {
        case .idle, .preparing, .signedOut, .stopped: break
        default: throw .alreadyActive(phase)
        }
        isPreparing = false
        completionPending = true
        attemptsSinceConnectCall = 0
        attempt = 0
        movedAtOnce = false
        var actions: [Action] = []
        if let timeout, timeout > .zero {
            actions.append(startTimer(.deadline, after: timeout))
        }
        // Connecting from the background (a push woke the app) suspends after the grace too,
        // whether or not a connection is ever made.
        if inBackground && timerTokens[.backgroundGrace] == nil {
            actions.append(startTimer(.backgroundGrace, after: configuration.backgroundGrace))
        }
        actions += networkAvailable ? openNow() : pause()
        return actions
    }

    /// A connect call began preparing (token, local database) before its first attempt; it
    /// ends with `connect`, `preparationFailed` or `preparationEnded`.
    public mutating func prepare() throws(ConnectRefusal) {
        guard !isPreparing else { throw .alreadyActive(phase) }
        switch phase {
        case .idle, .signedOut, .stopped: phase = .preparing
        default: throw .alreadyActive(phase)
        }
        isPreparing = true
    }

    /// The preparation is over, whether or not its call still is (a disconnect ends the call
    /// at once): a new call may prepare.
    public mutating func preparationEnded() {
        isPreparing = false
    }

    /// Preparing failed: the call ends with `termination` (stopped, its status reported), or
    /// without one (idle: a bad parameter or database, reported by the call alone).
    public mutating func preparationFailed(_ termination: SessionTermination?) -> [Action] {
        isPreparing = false
        guard case .preparing = phase else { return [] }
        guard let termination else {
            phase = .idle
            return []
        }
        phase = .stopped(termination)
        return setStatus(termination.status, termination.code)
    }

    /// The server accepted connection `generation` (CONNACK success), from `server` at `since`
    /// (ms since the epoch), over TLS when `tls` says how.
    public mutating func connected(
        generation: UInt64, server: ServerAddress, since: Int64, tls: TLSSessionInfo? = nil
    ) -> [Action] {
        guard generation == self.generation, case .connecting = phase else { return [] }
        phase = .connected(server: server, since: since, tls: tls)
        var actions: [Action] = [cancelTimer(.deadline), startTimer(.stable, after: configuration.stableAfter)]
        actions += setStatus(.connected, nil)
        if completionPending {
            completionPending = false
            actions.append(.complete(failure: nil))
        }
        if inBackground {
            actions.append(startTimer(.backgroundGrace, after: configuration.backgroundGrace))
        }
        return actions
    }

    /// Connection `generation` failed to open, was refused, or was lost after opening; `now`
    /// (ms since the epoch) dates a retry it schedules.
    public mutating func failed(generation: UInt64, _ failure: Failure, at now: Int64) -> [Action] {
        guard generation == self.generation, phase.isOpen else { return [] }
        var actions: [Action] = [cancelTimer(.stable)]
        switch failure {
        case .terminal(let termination):
            actions += stop(termination, closing: false)
        case .moved where networkAvailable && !movedAtOnce:
            movedAtOnce = true
            actions += openNow()
        case .retryable, .moved:
            actions += networkAvailable ? scheduleRetry(at: now) : pause()
        }
        return actions
    }

    /// A timer started by `.startTimer` ran out.
    public mutating func timerFired(_ kind: TimerKind, token: UInt64) -> [Action] {
        guard timerTokens[kind] == token else { return [] }
        timerTokens[kind] = nil
        switch kind {
        case .retry:
            guard case .waiting = phase else { return [] }
            return openNow()
        case .stable:
            if case .connected = phase {
                attempt = 0
                movedAtOnce = false
            }
            return []
        case .deadline:
            guard completionPending else { return [] }
            return stop(.timedOut, closing: phase.isOpen)
        case .backgroundGrace:
            switch phase {
            case .connecting, .connected, .waiting, .paused: guard inBackground else { return [] }
            default: return []
            }
            let wasOpen = phase.isOpen
            phase = .suspended
            var actions: [Action] = [cancelTimer(.retry), cancelTimer(.stable)]
            if wasOpen { actions.append(.close(generation: generation)) }
            return actions + setStatus(.suspend, nil)
        }
    }

    /// The device's network went down, came back, or changed (another interface or address).
    public mutating func network(_ change: NetworkChange) -> [Action] {
        switch change {
        case .down:
            networkAvailable = false
            switch phase {
            case .connecting, .connected:
                return [.close(generation: generation), cancelTimer(.stable)] + pause()
            case .waiting:
                return pause()
            default:
                return []
            }
        case .up:
            networkAvailable = true
            attempt = 0
            switch phase {
            case .paused, .waiting: return openNow()
            default: return []
            }
        case .changed:
            // Another network replaced the one the link ran on: that link is dead whatever it
            // says, so drop it and start over at once on a fresh schedule (as a real interface switch does).
            networkAvailable = true
            attempt = 0
            switch phase {
            case .connecting, .connected:
                return [.close(generation: generation), cancelTimer(.stable)] + openNow()
            case .paused, .waiting:
                return openNow()
            default:
                return []
            }
        }
    }

    /// The app went to the background: after the grace period the session suspends.
    /// - Parameter grace: this time's grace instead of the configured one.
    public mutating func background(grace: Duration? = nil) -> [Action] {
        guard !inBackground else { return [] }
        inBackground = true
        switch phase {
        case .connecting, .connected, .waiting, .paused:
            return [startTimer(.backgroundGrace, after: grace ?? configuration.backgroundGrace)]
        default:
            return []
        }
    }

    /// The app came to the foreground: the sequence starts over and a suspended session reconnects.
    public mutating func foreground() -> [Action] {
        guard inBackground else { return [] }
        inBackground = false
        attempt = 0
        var actions: [Action] = [cancelTimer(.backgroundGrace)]
        switch phase {
        case .suspended where networkAvailable, .waiting where networkAvailable: actions += openNow()
        case .suspended: actions += pause()
        default: break
        }
        return actions
    }

    /// The app disconnected: no more attempts; a pending connect call ends as signed out.
    public mutating func disconnect() -> [Action] {
        if case .closed = phase { return [] }
        let wasOpen = phase.isOpen
        var actions = cancelAllTimers()
        if wasOpen { actions.append(.close(generation: generation)) }
        phase = .signedOut
        actions += setStatus(.signOut, nil)
        if completionPending {
            completionPending = false
            actions.append(.complete(failure: .signedOut))
        }
        return actions
    }

    /// The session closed: nothing more happens to it.
    public mutating func close() -> [Action] {
        phase = .closed
        return cancelAllTimers()
    }
}

extension SessionStateMachine {
    private mutating func openNow() -> [Action] {
        generation += 1
        let isReconnection = attemptsSinceConnectCall > 0
        attemptsSinceConnectCall += 1
        phase = .connecting(attempt: attempt)
        return setStatus(.connecting, nil) + [cancelTimer(.retry), .open(generation: generation, isReconnection: isReconnection)]
    }

    private mutating func scheduleRetry(at now: Int64) -> [Action] {
        let delay = configuration.schedule.delay(forAttempt: attempt, using: &random)
        attempt += 1
        phase = .waiting(attempt: attempt, retryAt: now + Int64(delay.nanoseconds / 1_000_000))
        return [startTimer(.retry, after: delay)] + setStatus(.connecting, nil)
    }

    private mutating func pause() -> [Action] {
        phase = .paused
        return [cancelTimer(.retry)] + setStatus(.networkUnavailable, nil)
    }

    private mutating func stop(_ termination: SessionTermination, closing: Bool) -> [Action] {
        var actions = cancelAllTimers()
        if closing { actions.append(.close(generation: generation)) }
        phase = .stopped(termination)
        actions += setStatus(termination.status, termination.code)
        if completionPending {
            completionPending = false
            actions.append(.complete(failure: termination))
        }
        return actions
    }

    private mutating func setStatus(_ new: ConnectionStatus, _ code: ConnectErrorCode?) -> [Action] {
        guard new != status || code != nil else { return [] }
        status = new
        return [.status(new, code)]
    }

    private mutating func startTimer(_ kind: TimerKind, after delay: Duration) -> Action {
        nextToken += 1
        timerTokens[kind] = nextToken
        return .startTimer(kind, token: nextToken, delay: delay)
    }

    private mutating func cancelAllTimers() -> [Action] {
        [cancelTimer(.retry), cancelTimer(.deadline), cancelTimer(.backgroundGrace), cancelTimer(.stable)]
    }

    private mutating func cancelTimer(_ kind: TimerKind) -> Action {
        timerTokens[kind] = nil
        return .cancelTimer(kind)
    }
}
