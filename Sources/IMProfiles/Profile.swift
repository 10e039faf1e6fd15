import IMProtocol
import IMHTTP
import IMTransport

/// One app-key environment (`profiles/NAME.json`): where to log in, and the accounts to log in with.
public struct Profile: Sendable, Hashable, CustomStringConvertible {
    /// The file name without `.json`.
    public var name: String
    /// The file's path, as found in the profile directory.
    public var file: String
    /// The MQTT User Name of every account of the profile.
    public var appKey: String
    public var server: ServerEndpoint
    /// The server API base URL (`api`); with an embedded server its API is used instead.
    public var api: HTTPURL?
    /// For development only: lets imsh fetch tokens and run admin commands through the server API.
    public var appSecret: Secret?
    /// The `defaults` field over `SessionSettings.builtIn`.
    public var defaults: SessionSettings
    /// In file order.
    public var accounts: [Account]
    /// The profile's `tls` with its `defaults`' over it: how an https `api` is verified.
    public var tls: TLSClientConfiguration?

    public init(
        name: String, file: String, appKey: String, server: ServerEndpoint, api: HTTPURL? = nil,
        appSecret: Secret? = nil, defaults: SessionSettings = .builtIn, accounts: [Account] = [],
        tls: TLSClientConfiguration? = nil
    ) {
        self.name = name
        self.file = file
        self.appKey = appKey
        self.server = server
        self.api = api
        self.appSecret = appSecret
        self.defaults = defaults
        self.accounts = accounts
        self.tls = tls
    }

    /// Whether imsh can call the server API: it has the app secret and an API to call
    /// (`api`, or the embedded server's).
    public var hasServerAPI: Bool { appSecret != nil && (api != nil || server == .embedded) }

    public func account(named name: String) -> Account? {
        accounts.first { $0.name == name }
    }

    /// One line for people: name, app key, server, API, secret (redacted), account count.
    public var description: String {
        var text = "\(name) appKey=\(appKey) server=\(server)"
        if let api { text += " api=\(api)" }
        if let appSecret { text += " appSecret=\(appSecret.redacted)" }
        return text + " accounts=\(accounts.count)"
    }
}
