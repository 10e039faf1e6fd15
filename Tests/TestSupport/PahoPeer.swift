import Foundation
import IMProcess

/// Runs Tests/StockClient/paho_peer.py (stock paho-mqtt, installed by scripts/bootstrap)
/// against a server (imserver, or mosquitto for the engine's tests) and returns the lines it
/// printed: `connack XX`, `message …`, `disconnect XX`. A missing paho-mqtt fails the test with
/// Python's message (scripts/bootstrap installs it).
public enum PahoPeer {
    static let script = stockClient("paho_peer.py")

    /// The path of a script in Tests/StockClient.
    public static func stockClient(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StockClient/\(name)").path
    }

    /// `action` is send, receive, oversize or silent; `options` are the script's other flags.
    public static func run(
        _ action: String, port: UInt16, appKey: String, token: String, device: String = "paho-device-1",
        protocolVersion: String = "5", _ options: [String] = []
    ) async throws -> [String] {
        let arguments = [script, action, "--port", String(port), "--app-key", appKey, "--token", token,
                         "--device", device, "--protocol", protocolVersion] + options
        let output = try await offPool {
            try ChildProcess.run("/usr/bin/env", ["python3"] + arguments, timeout: .seconds(30))
        }
        let errors = String(decoding: output.stderr, as: UTF8.self)
        if errors.contains("No module named 'paho'") {
            throw PahoFailure("paho-mqtt is not installed for the python3 on PATH; scripts/bootstrap installs it")
        }
        guard output.termination.status == 0 else { throw PahoFailure("paho_peer.py \(action) failed: \(errors)") }
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// paho_peer.py did not run to its end.
public struct PahoFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
