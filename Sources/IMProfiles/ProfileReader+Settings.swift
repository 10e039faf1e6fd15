import IMConfig
import IMProtocol

extension ProfileReader {
    /// The session settings an account may set; `defaults` also takes `jitter`.
    static let settingNames: Set<String> = ["timeout", "reconnectKickEnable", "heartbeat", "platform", "backgroundGrace"]

    /// `base` with the settings `object` sets; a field with a problem keeps the base value.
    func readSettings(_ object: ObjectReader, over base: SessionSettings, includingJitter: Bool) -> SessionSettings {
        var settings = base
        if let value = object.int("timeout", in: SessionSettings.timeoutRange) { settings.timeout = value }
        if let value = object.bool("reconnectKickEnable") { settings.reconnectKickEnable = value }
        if let value = object.int("heartbeat", in: SessionSettings.heartbeatRange) { settings.heartbeat = value }
        if let value = readPlatform(object) { settings.platform = value }
        if let value = object.int("backgroundGrace", in: SessionSettings.backgroundGraceRange) { settings.backgroundGrace = value }
        if includingJitter, let value = object.double("jitter", in: SessionSettings.jitterRange) { settings.jitter = value }
        return settings
    }

    private func readPlatform(_ object: ObjectReader) -> Platform? {
        guard let text = object.string("platform", nonEmpty: false), let node = object.node("platform") else { return nil }
        guard let platform = Platform(rawValue: text) else {
            let names = Platform.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.error(object.fieldPath("platform"), at: node.location, "expected one of \(names), found \"\(text)\"")
            return nil
        }
        return platform
    }
}
