import IMConfig
import IMHTTP
import IMJSON
import IMProtocol

/// Reads one profile file's JSON into a `Profile`, recording every problem in `diagnostics`.
///
/// Used by one loader for one file, then dropped.
struct ProfileReader {
    static let fieldNames: Set<String> = ["appKey", "server", "api", "appSecret", "defaults", "accounts", "tls"]

    let name: String
    let diagnostics: ConfigDiagnostics
    /// The app secret and literal tokens read, by field path.
    private var credentialFields: [String] = []
    /// The proxies with a password read, by field path.
    private var proxyPasswordFields: [String] = []
    private var isEmbedded = false

    /// The fields whose exposure matters, for the permission check. With an embedded server the
    /// app secret and tokens only open the server imsh runs itself, so only proxy passwords count.
    var sensitiveFields: [String] { (isEmbedded ? [] : credentialFields) + proxyPasswordFields }

    init(name: String, diagnostics: ConfigDiagnostics) {
        self.name = name
        self.diagnostics = diagnostics
    }

    /// The profile, or `nil` when any error was found (every error is in `diagnostics`).
    mutating func read(_ bytes: [UInt8]) -> Profile? {
        guard let root = diagnostics.parse(bytes),
              let top = diagnostics.object(root, field: "", allowed: Self.fieldNames) else { return nil }
        top.require("appKey")
        let appKey = readAppKey(top)
        top.require("server")
        let server = top.node("server").flatMap(readServer)
        let api = readAPI(top)
        let appSecret = top.string("appSecret").map(Secret.init)
        if appSecret != nil { credentialFields.append("appSecret") }
        isEmbedded = server == .embedded
        if server == .embedded, let node = top.node("api"), api != nil {
            diagnostics.warning("api", at: node.location, "ignored: accounts of an embedded server use its own API")
        }
        var defaults = SessionSettings.builtIn
        var tls = readTLS(top, over: nil)
        if let object = top.object("defaults", allowed: Self.settingNames.union(["jitter", "tls"])) {
            defaults = readSettings(object, over: defaults, includingJitter: true)
            tls = readTLS(object, over: tls)
        }
        // A field present but in error counts as there, so its error is not repeated for each account.
        let serverInError = server == nil && top.node("server") != nil, apiInError = api == nil && top.node("api") != nil
        let context = AccountContext(
            appKey: appKey, hasAppSecret: top.node("appSecret") != nil,
            hasAPI: api != nil || server == .embedded || serverInError || apiInError, defaults: defaults, tls: tls)
        let accounts = top.node("accounts").map { readAccounts($0, context: context) } ?? []
        guard !diagnostics.hasErrors, let appKey, let server else { return nil }
        return Profile(
            name: name, file: diagnostics.file, appKey: appKey, server: server, api: api,
            appSecret: appSecret, defaults: defaults, accounts: accounts, tls: tls)
    }

    private func readAppKey(_ top: ObjectReader) -> String? {
        guard let key = top.string("appKey"), let node = top.node("appKey") else { return nil }
        guard key.utf8.count <= 255, key.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            diagnostics.error("appKey", at: node.location, "must be at most 255 bytes without spaces or control characters")
            return nil
        }
        return key
    }

    private func readServer(_ node: JSONNode) -> ServerEndpoint? {
        switch node.value {
        case .string(let text) where text == ServerEndpoint.embeddedKeyword:
            return .embedded
        case .string:
            return serverAddress(node, field: "server").map { .addresses([$0]) }
        case .array(let elements) where !elements.isEmpty:
            let addresses = elements.enumerated().map { serverAddress($1, field: "server[\($0)]") }
            let parsed = addresses.compactMap { $0 }
            return parsed.count == addresses.count ? .addresses(parsed) : nil
        case .array:
            diagnostics.error("server", at: node.location, "the list of addresses is empty")
            return nil
        default:
            diagnostics.error("server", at: node.location, "expected \"embedded\", an address mqtt://HOST:PORT (mqtts:// for TLS) or an array of addresses, found \(node.typeName)")
            return nil
        }
    }

    private func serverAddress(_ node: JSONNode, field: String) -> ServerAddress? {
        guard case .string(let text) = node.value else {
            diagnostics.error(field, at: node.location, "expected an address mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH, found \(node.typeName)")
            return nil
        }
        if text == ServerEndpoint.embeddedKeyword {
            diagnostics.error(field, at: node.location, "\"embedded\" stands alone, not in a list of addresses")
            return nil
        }
        do {
            return try ServerAddress(mqttURL: text)
        } catch {
            let hint = text.contains("://") ? "" : " (or \"embedded\")"
            diagnostics.error(field, at: node.location, "\(error.reason)\(hint)")
            return nil
        }
    }

    private func readAPI(_ top: ObjectReader) -> HTTPURL? {
        guard let text = top.string("api"), let node = top.node("api") else { return nil }
        return httpURL(text, field: "api", at: node.location, base: true)
    }

    /// Parses an http URL; a `base` URL (the server API) may not have a query.
    func httpURL(_ text: String, field: String, at location: SourceLocation, base: Bool) -> HTTPURL? {
        do {
            let url = try HTTPURL(parsing: text)
            if base, url.query != nil {
                diagnostics.error(field, at: location, "a base URL has no query; expected http://HOST:PORT")
                return nil
            }
            return url
        } catch {
            diagnostics.error(field, at: location, error.reason)
            return nil
        }
    }

    mutating func noteSecret(_ field: String, isProxyPassword: Bool = false) {
        if isProxyPassword {
            proxyPasswordFields.append(field)
        } else {
            credentialFields.append(field)
        }
    }
}
