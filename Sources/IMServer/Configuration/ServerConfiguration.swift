import IMConfig
import IMHTTP
import IMJSON

/// What imserver serves: its apps and its limits, from a JSON file or the development default.
///
/// File format (every field but `apps[].appKey` and `apps[].appSecret` optional):
///
///     {
///       "apps": [{"appKey": "k", "appSecret": "s", "tokenLifetimeSeconds": 86400,
///                 "clientKickPolicy": true, "blocked": false, "offlineRetentionSeconds": 604800,
///                 "maxQueuedMessages": 10000, "maxQueuedBytes": 67108864}],
///       "limits": {"maxConnections": 100000, "maxPacketSize": 262144, "connectRate": 20000,
///                  "connectTimeoutSeconds": 5, "outgoingBufferLimit": 4194304, "apiMaxBodySize": 65536},
///       "metricsListen": "127.0.0.1:9464"
///     }
public struct ServerConfiguration: Sendable, Equatable {
    public var apps: [AppSettings]
    public var limits: ServerLimits
    /// Where to serve `/metrics`, `/healthz` and `/readyz` (`--metrics-listen` wins over it).
    public var metricsListen: HostPort?

    public init(apps: [AppSettings] = [.development], limits: ServerLimits = ServerLimits(), metricsListen: HostPort? = nil) {
        self.apps = apps
        self.limits = limits
        self.metricsListen = metricsListen
    }

    /// Reads a configuration from JSON; every problem goes into `diagnostics`, and the result is
    /// `nil` when any of them is an error.
    public static func parse(_ bytes: [UInt8], diagnostics: ConfigDiagnostics) -> ServerConfiguration? {
        guard let root = diagnostics.parse(bytes),
              let top = diagnostics.object(root, field: "", allowed: ["apps", "limits", "metricsListen"]) else { return nil }
        var configuration = ServerConfiguration(apps: [])
        if let node = top.node("apps") {
            configuration.apps = readApps(node, diagnostics: diagnostics)
        } else {
            configuration.apps = [.development]
        }
        if let limits = top.object("limits", allowed: ServerLimits.fieldNames) {
            configuration.limits = ServerLimits(reading: limits)
        }
        if let text = top.string("metricsListen") {
            do throws(URLParseError) {
                configuration.metricsListen = try HostPort(parsing: text, defaultPort: nil, allowsPortZero: true)
            } catch {
                diagnostics.error("metricsListen", at: top.node("metricsListen")?.location,
                                  "wants HOST:PORT, such as 127.0.0.1:9464, not '\(text)': \(error.reason)")
            }
        }
        return diagnostics.hasErrors ? nil : configuration
    }

    private static func readApps(_ node: JSONNode, diagnostics: ConfigDiagnostics) -> [AppSettings] {
        guard case .array(let elements) = node.value else {
            diagnostics.error("apps", at: node.location, "expected an array of apps, found \(node.typeName)")
            return []
        }
        var apps: [AppSettings] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            guard let object = diagnostics.object(element, field: "apps[\(index)]", allowed: AppSettings.fieldNames),
                  let app = AppSettings(reading: object) else { continue }
            if seen.insert(app.appKey).inserted {
                apps.append(app)
            } else {
                diagnostics.error("apps[\(index)].appKey", at: object.node("appKey")?.location, "app key \(app.appKey) appears more than once")
            }
        }
        return apps
    }
}

extension AppSettings {
    static let fieldNames: Set<String> = [
        "appKey", "appSecret", "tokenLifetimeSeconds", "clientKickPolicy", "blocked", "offlineRetentionSeconds",
        "maxQueuedMessages", "maxQueuedBytes",
    ]

    init?(reading object: ObjectReader) {
        let hasKey = object.require("appKey"), hasSecret = object.require("appSecret")
        let key = object.string("appKey"), secret = object.string("appSecret")
        let lifetime = object.int("tokenLifetimeSeconds", in: 0...(100 * 365 * 86400))
        let retention = object.int("offlineRetentionSeconds", in: 1...(365 * 86400))
        let kick = object.bool("clientKickPolicy"), blocked = object.bool("blocked")
        let defaults = QueueQuota()
        let quota = QueueQuota(messages: object.int("maxQueuedMessages", in: 1...1_000_000_000) ?? defaults.messages,
                               bytes: object.int("maxQueuedBytes", in: 1...(1 << 40)) ?? defaults.bytes)
        guard hasKey, hasSecret, let key, let secret else { return nil }
        self.init(
            appKey: key, appSecret: secret,
            tokenLifetime: lifetime.flatMap { $0 > 0 ? .seconds($0) : nil },
            clientControlsKickPolicy: kick ?? false, blocked: blocked ?? false,
            offlineRetention: .seconds(retention ?? 7 * 86400), queueQuota: quota)
    }
}

extension ServerLimits {
    static let fieldNames: Set<String> = [
        "maxConnections", "maxPacketSize", "connectRate", "connectTimeoutSeconds", "outgoingBufferLimit", "apiMaxBodySize",
    ]

    init(reading object: ObjectReader) {
        self.init()
        if let value = object.int("maxConnections", in: 1...10_000_000) { maxConnections = value }
        if let value = object.int("maxPacketSize", in: 64...268_435_460) { maxPacketSize = value }
        if let value = object.int("connectRate", in: 0...10_000_000) { connectRate = value }
        if let value = object.int("connectTimeoutSeconds", in: 1...3600) { connectTimeout = .seconds(value) }
        if let value = object.int("outgoingBufferLimit", in: 4096...(1 << 30)) { outgoingBufferLimit = value }
        if let value = object.int("apiMaxBodySize", in: 1024...(64 << 20)) { apiMaxBodySize = value }
    }
}
