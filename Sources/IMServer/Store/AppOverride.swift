/// What the server changed about an app at run time, layered over the configuration file.
///
/// A field that is nil leaves the configured value in force.
public struct AppOverride: Sendable, Equatable {
    /// Set by `setAppBlocked`; wins over the file's `blocked`.
    public var blocked: Bool?
    /// The secret from the latest `rotateSecret`; wins over the file's `appSecret`.
    public var secret: String?
    /// When the secret was last rotated, in ms since the epoch.
    public var secretRotatedAt: Int64?

    public init(blocked: Bool? = nil, secret: String? = nil, secretRotatedAt: Int64? = nil) {
        self.blocked = blocked
        self.secret = secret
        self.secretRotatedAt = secretRotatedAt
    }

    /// `app` with this override's values in place of the configured ones.
    public func applied(to app: AppSettings) -> AppSettings {
        var effective = app
        if let blocked { effective.blocked = blocked }
        if let secret { effective.appSecret = secret }
        return effective
    }

    /// The apps of `configured`, in order, each with its override applied; overrides of app
    /// keys the configuration no longer has are ignored.
    public static func effectiveApps(configured: [AppSettings], overrides: [String: AppOverride]) -> [AppSettings] {
        configured.map { app in overrides[app.appKey]?.applied(to: app) ?? app }
    }
}
