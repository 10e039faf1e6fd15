import IMChaos
import IMCommandLine
import IMHTTP
import IMJSON
import IMTransport

/// How imchaos prints: a line of text each, or with `--json` a JSON object each.
struct ChaosOutput: Sendable {
    var json: Bool

    func listening(_ address: SocketAddress, target: HostPort, plan: RandomFaults, randomOn: Bool) {
        if json {
            write(["event": "listening", "address": .string(address.description), "target": .string(target.description),
                   "seed": .integer(Int64(bitPattern: plan.seed)), "random": .bool(randomOn)])
        } else {
            line("listening \(address) target \(target) seed \(plan.seed) random \(randomOn ? "on" : "off")")
        }
    }

    /// A fault injected or a cut made; called on the proxy's thread.
    func event(_ event: ProxyEvent) {
        guard json else { return line(event.description) }
        switch event {
        case .fault(let fault):
            var object: [(String, JSONValue)] = [
                ("event", "fault"), ("connection", fault.connection.map { .integer(Int64($0.rawValue)) } ?? "all"),
                ("fault", .string(fault.fault.kind.rawValue)),
            ]
            if let milliseconds = fault.fault.delayMilliseconds { object.append(("ms", .integer(milliseconds))) }
            if case .throttle(let rate) = fault.fault { object.append(("bytesPerSecond", .integer(Int64(rate)))) }
            if case .loss(let percent) = fault.fault { object.append(("percent", .integer(Int64(percent)))) }
            object.append(("origin", .string(fault.origin.rawValue)))
            write(.object(JSONObject(object)))
        case .cut(let cut):
            write(["event": "cut", "connection": .integer(Int64(cut.connection.rawValue)), "packet": .string(cut.packet),
                   "to": .string(cut.towardServer ? "server" : "client"), "forwarded": .integer(Int64(cut.forwarded)),
                   "length": cut.length.map { .integer(Int64($0)) } ?? .null])
        }
    }

    func list(_ connections: [ProxyConnectionInfo]) {
        guard json else {
            if connections.isEmpty { line("no connections") }
            for connection in connections { line(connection.description) }
            return
        }
        for info in connections {
            write(["event": "connection", "id": .integer(Int64(info.id.rawValue)), "client": .string(info.client.description),
                   "upstream": .string(info.upstream.rawValue), "conditions": .string(info.conditions.description),
                   "cutPending": .bool(info.cutPending), "sent": .integer(Int64(info.bytesToServer)),
                   "received": .integer(Int64(info.bytesToClient)), "held": .integer(Int64(info.heldBytes))])
        }
        write(["event": "listed", "count": .integer(Int64(connections.count))])
    }

    func random(on: Bool, plan: RandomFaults) {
        let kinds = plan.kinds.map(\.rawValue)
        if json {
            write(["event": "random", "on": .bool(on), "seed": .integer(Int64(bitPattern: plan.seed)),
                   "every": .string(ChaosDuration.text(plan.every)), "faults": .array(kinds.map { .string($0) })])
        } else {
            line("random \(on ? "on" : "off") seed \(plan.seed) every \(ChaosDuration.text(plan.every)) faults \(kinds.joined(separator: ","))")
        }
    }

    func help(_ text: String) {
        if json {
            write(["event": "help", "text": .string(text)])
        } else {
            CommandLineTool.writeOut(text)
        }
    }

    private func write(_ object: JSONValue) { line(object.jsonText) }

    private func line(_ text: String) { CommandLineTool.writeOut(text + "\n") }
}
