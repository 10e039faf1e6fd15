import IMBench
import IMEngine

extension ChaosRun {
    /// The users whose devices did not all come back, each with its offline devices' last
    /// status and the API calls made on it: enough to tell a server that kept a device out
    /// from a run that left the user blocked or deactivated (a call that got no answer and
    /// was carried out after the one lifting it).
    func usersNotBack(origin: ContinuousClock.Instant) -> [String] {
        let (log, takingOver) = control.withLock { ($0.userLog, $0.takingOver) }
        // Before the take-over, a user is back with its pc and one mobile device; after it,
        // once every device has its messages.
        let lacking = !takingOver ? [] : Set(ledger.missing { [users, presence] user in
            users.devices(of: user).map(\.name).filter { !presence.isOnline($0) }
        }.map { $0.split(separator: "/")[0] })
        var lines: [String] = []
        for user in 0..<settings.users {
            let devices = Array(users.devices(of: user))
            let online = devices.map { presence.isOnline($0.name) }
            guard !(online[2] && (online[0] || online[1])) || lacking.contains(Substring(users.userIDs[user])) else { continue }
            let offline = zip(devices, online).filter { !$0.1 }.map { describe($0.0) }
            let calls = (log[user] ?? []).map { "\(seconds($0.at, since: origin)) \($0.text)" }
            lines.append("not back: \(users.userIDs[user]): " + offline.joined(separator: "; ")
                + (calls.isEmpty ? "" : " (API calls: " + calls.joined(separator: "; ") + ")"))
        }
        return lines.count > 10 ? Array(lines.prefix(10)) + ["not back: ... \(lines.count - 10) more users"] : lines
    }

    /// Each message without an answer, with its sender, when it was sent, its sender's pc now
    /// and the run's faults of the 5 s before.
    func unansweredMessages(origin: ContinuousClock.Instant) -> [String] {
        let messages = ledger.unansweredMessages
        var lines = messages.prefix(10).map { cid, sent in
            let sender = users.userIDs.firstIndex(of: sent.from).map { users.device(of: $0, .pc) }
            let faults = tally.around(sent.at - .seconds(5), sent.at, origin: origin)
            return "sent, never answered: \(cid) (\(sent.from) #\(sent.number) to \(users.userIDs[sent.to]) at "
                + "\(seconds(sent.at, since: origin)); sender \(sender.map(describe) ?? "?")"
                + (faults.isEmpty ? "" : "; faults then: " + faults.joined(separator: "; ")) + ")"
        }
        if messages.count > 10 { lines.append("sent, never answered: ... \(messages.count - 10) more") }
        return lines
    }

    /// `u3/pc userAbandon 31011 user-abandoned`: the device's last status change.
    private func describe(_ device: ChaosDevice) -> String {
        guard let change = users.engine.hub.snapshot(of: device.session.id)?.lastChange else { return "\(device.name) ?" }
        return "\(device.name) \(change.status)\(change.code.map { " \($0)" } ?? "") \(change.detail)"
    }

    private func seconds(_ instant: ContinuousClock.Instant, since origin: ContinuousClock.Instant) -> String {
        "\(Units.oneDecimal(Units.seconds(origin.duration(to: instant)))) s"
    }
}
