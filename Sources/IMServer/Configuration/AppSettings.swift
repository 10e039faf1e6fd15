/// One app key the server serves, with its secret and policies.
public struct AppSettings: Sendable, Equatable {
    public var appKey: String
    /// Signs tokens and API requests; rotating it invalidates every token of the app.
    public var appSecret: String
    /// How long a token stays valid; `nil` means tokens do not expire by age.
    public var tokenLifetime: Duration?
    /// Whether clients may ask, with `im-kick-enable`, to give way on reconnection.
    public var clientControlsKickPolicy: Bool
    /// A blocked app refuses every login with 0x87 `app-blocked`.
    public var blocked: Bool
    /// How long undelivered messages are kept for an offline device.
    public var offlineRetention: Duration
    /// How much each user may have stored and undelivered (PUBACK 0x97 beyond it).
    public var queueQuota: QueueQuota

    public init(
        appKey: String, appSecret: String, tokenLifetime: Duration? = nil,
        clientControlsKickPolicy: Bool = false, blocked: Bool = false,
        offlineRetention: Duration = .seconds(7 * 24 * 3600), queueQuota: QueueQuota = QueueQuota()
    ) {
        self.appKey = appKey
        self.appSecret = appSecret
        self.tokenLifetime = tokenLifetime
        self.clientControlsKickPolicy = clientControlsKickPolicy
        self.blocked = blocked
        self.offlineRetention = offlineRetention
        self.queueQuota = queueQuota
    }

    /// The app that exists when the server runs without a configuration file, so it is usable at once.
    /// Its key and secret are documented in imserver(8); never use it outside development.
    public static let development = AppSettings(
        appKey: "imsh-dev", appSecret: "imsh-dev-secret", clientControlsKickPolicy: true)
}
