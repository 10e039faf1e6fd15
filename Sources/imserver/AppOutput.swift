import IMCommandLine
import IMJSON
import IMProtocol
import IMServer

/// How `imserver app` prints: aligned text for people, or JSON objects one a line for scripts.
/// Secrets appear only in `rotate-secret`'s answer, never in `list`.
struct AppOutput {
    var json: Bool

    func list(_ apps: [AppSettings], overrides: [String: AppOverride]) {
        if json {
            for app in apps {
                let rotated = overrides[app.appKey]?.secretRotatedAt
                print([
                    "appKey": .string(app.appKey), "state": .string(Self.state(app)),
                    "tokenLifetimeSeconds": app.tokenLifetime.map { .integer(Self.seconds($0)) } ?? .null,
                    "clientKickPolicy": .bool(app.clientControlsKickPolicy),
                    "offlineRetentionSeconds": .integer(Self.seconds(app.offlineRetention)),
                    "secretRotatedAt": rotated.map { .integer($0) } ?? .null,
                ])
            }
            return
        }
        let header = ["KEY", "STATE", "TOKEN LIFETIME", "CLIENT KICK POLICY", "RETENTION"]
        let rows = apps.map { app in
            [app.appKey, Self.state(app), app.tokenLifetime.map(Self.text) ?? "unlimited",
             app.clientControlsKickPolicy ? "client may ask" : "always kick", Self.text(app.offlineRetention)]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            CommandLineTool.writeOut(cells.joined(separator: "  ") + "\n")
        }
    }

    func changed(_ key: String, blocked: Bool) {
        if json {
            print(["appKey": .string(key), "state": .string(blocked ? "blocked" : "active")])
        } else {
            CommandLineTool.writeOut("app \(key) \(blocked ? "blocked" : "unblocked")\n")
        }
    }

    /// The secret alone on its line, so that `$(imserver app rotate-secret KEY)` is the secret.
    func rotated(_ key: String, secret: String) {
        if json {
            print(["appKey": .string(key), "secret": .string(secret)])
        } else {
            CommandLineTool.writeOut(secret + "\n")
        }
    }

    private func print(_ object: JSONValue) {
        CommandLineTool.writeOut(object.jsonText + "\n")
    }

    private static func state(_ app: AppSettings) -> String {
        app.blocked ? "blocked" : "active"
    }

    private static func seconds(_ duration: Duration) -> Int64 {
        duration.components.seconds
    }

    /// Whole seconds in the largest units that divide them: `7d`, `1h30m`, `45s`.
    static func text(_ duration: Duration) -> String {
        var remaining = seconds(duration)
        guard remaining > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}
