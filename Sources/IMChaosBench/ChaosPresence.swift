import IMBench
import Synchronization

/// Which devices of each user the clients see online, from the sessions' status events: the
/// longest time two mobile devices of one user were both online, and what a block or a
/// deactivation left online after the API answered.
///
/// Online is the client's view: from the status `connected` to the next status. A client
/// learns of its end a little after the server decided it (a DISCONNECT on the way); on the
/// faulty proxies it may learn much later (a black hole hides it until the heartbeat fails),
/// so the bounds are checked on the users of the clean proxies.
final class ChaosPresence: Sendable {
    /// A block or deactivation in force: from the API's answer to the call that lifts it.
    struct Hold: Sendable {
        var kind: String
        var answered: ContinuousClock.Instant
        /// Devices still online that were online at the answer, with when they came online.
        var waiting: Set<String> = []
        /// The longest time a device stayed online after the answer.
        var longestStay: Duration = .zero
        var stayDevice = ""
        /// The node that device was on.
        var stayNode: Int?
    }

    struct Overlap: Sendable {
        var user = ""
        var length: Duration = .zero
        var at: ContinuousClock.Instant?
        /// The nodes the two devices were on, those known: the displaced one's may have been cut
        /// off from PostgreSQL (a node that is cannot accept the newer login).
        var nodes: [Int] = []
    }

    struct State: Sendable {
        var online: [String: ContinuousClock.Instant] = [:]
        /// The node each device online is on, when known.
        var nodes: [String: Int] = [:]
        var overlapSince: [Int: ContinuousClock.Instant] = [:]
        /// The nodes of the two devices of each overlap under way.
        var overlapNodes: [Int: [Int]] = [:]
        var clean = Overlap()
        var faulty = Overlap()
        /// Every overlap of a clean user longer than 50 ms, to be judged with the faults around it.
        var longOverlaps: [Overlap] = []
        var holds: [Int: Hold] = [:]
        /// Logins that succeeded after a block or deactivation answered (clean users), in words.
        var loginsAfterHold: [String] = []
        /// The same on the faulty proxies, where a CONNACK may have waited in a black hole.
        var faultyLoginsAfterHold = 0
        /// Each hold's longest stay once lifted (clean users), with the device, its node and the answer time.
        var stays: [(kind: String, device: String, node: Int?, stay: Duration, answered: ContinuousClock.Instant)] = []
    }

    /// A CONNACK already on its way when the API answered reaches the client this much later at most
    /// on loopback (the engine's event included).
    static let answerSlack: Duration = .milliseconds(100)

    private let state = Mutex(State())

    /// `device` of `user` (a mobile one or not) came online (on `node`, when known) or went
    /// off at `instant`.
    func changed(_ device: ChaosDevice, online: Bool, node: Int? = nil, at instant: ContinuousClock.Instant) {
        let name = device.name
        state.withLock { state in
            let wasOnline = state.online[name] != nil
            if online && !wasOnline {
                state.online[name] = instant
                state.nodes[name] = node
                if var hold = state.holds[device.user] {
                    if instant <= hold.answered + Self.answerSlack {
                        hold.waiting.insert(name)
                        state.holds[device.user] = hold
                    } else if device.clean {
                        state.loginsAfterHold.append("\(name) logged in \(Units.millisecondsText(instant - hold.answered)) after \(hold.kind) answered")
                    } else {
                        state.faultyLoginsAfterHold += 1
                    }
                }
            } else if !online && wasOnline {
                state.online[name] = nil
                let node = state.nodes.removeValue(forKey: name)
                if var hold = state.holds[device.user], hold.waiting.remove(name) != nil {
                    let stay = max(.zero, instant - hold.answered)
                    if stay > hold.longestStay { (hold.longestStay, hold.stayDevice, hold.stayNode) = (stay, name, node) }
                    state.holds[device.user] = hold
                }
            }
            guard device.role.isMobile else { return }
            let both = state.online["\(device.userID)/m1"] != nil && state.online["\(device.userID)/m2"] != nil
            if both && state.overlapSince[device.user] == nil {
                state.overlapSince[device.user] = instant
                state.overlapNodes[device.user] = ["m1", "m2"].compactMap { state.nodes["\(device.userID)/\($0)"] }
            } else if !both, let since = state.overlapSince.removeValue(forKey: device.user) {
                let length = instant - since
                let nodes = state.overlapNodes.removeValue(forKey: device.user) ?? []
                if device.clean && length > .milliseconds(50) {
                    state.longOverlaps.append(Overlap(user: device.userID, length: length, at: since, nodes: nodes))
                }
                if device.clean, length > state.clean.length {
                    state.clean = Overlap(user: device.userID, length: length, at: since)
                } else if !device.clean, length > state.faulty.length {
                    state.faulty = Overlap(user: device.userID, length: length, at: since)
                }
            }
        }
    }

    /// A block or deactivation of `user` answered at `instant`; `devices` names the user's devices.
    func held(_ user: Int, kind: String, at instant: ContinuousClock.Instant, devices: [String]) {
        state.withLock { state in
            var hold = Hold(kind: kind, answered: instant)
            for name in devices where state.online[name] != nil { hold.waiting.insert(name) }
            state.holds[user] = hold
        }
    }

    /// The call lifting `user`'s hold starts at `instant`: what stayed online until then counts as
    /// staying that long.
    func lifted(_ user: Int, at instant: ContinuousClock.Instant, clean: Bool) {
        state.withLock { state in
            guard var hold = state.holds.removeValue(forKey: user) else { return }
            if !hold.waiting.isEmpty {
                let stay = instant - hold.answered
                let device = hold.waiting.sorted()[0]
                if stay > hold.longestStay { (hold.longestStay, hold.stayDevice, hold.stayNode) = (stay, device + " (still online)", state.nodes[device]) }
            }
            if clean && hold.longestStay > .zero {
                state.stays.append((hold.kind, hold.stayDevice, hold.stayNode, hold.longestStay, hold.answered))
            }
        }
    }

    var snapshot: State { state.withLock { $0 } }

    /// Mobile devices online now, by user, for the drain.
    func isOnline(_ name: String) -> Bool { state.withLock { $0.online[name] != nil } }
}
