import IMProtocol
import IMTransport

/// One chat account of a profile, with every setting resolved to its effective value.
///
/// Settings come from the account's own fields, else the profile's `defaults`, else
/// `SessionSettings.builtIn`. `description` shows no secret.
public struct Account: Sendable, Hashable, CustomStringConvertible {
    /// The name in the profile's `accounts` object.
    public var name: String
    /// The name of the profile the account belongs to.
    public var profile: String
    /// The user id: the `userId` field, else the user of a readable literal token, else `nil`
    /// (a token from a command or URL: the engine learns it from CONNACK's `im-user-id`).
    public var userID: String?
    public var tokenSource: TokenSource
    /// The MQTT Client Identifier: the `deviceId` field, else `Account.derivedDeviceID`.
    public var deviceID: String
    public var platform: Platform
    /// Seconds the first connection of a `connect` may take; 0 retries until connected.
    public var timeout: Int
    public var reconnectKickEnable: Bool
    /// Keep Alive, in seconds.
    public var heartbeat: Int
    /// The fraction by which each reconnection wait may vary either way (profile-wide).
    public var jitter: Double
    /// Seconds in the background before the session suspends.
    public var backgroundGrace: Int
    public var proxy: ProxyAddress?
    /// How `mqtts://` servers are verified: the `tls` objects of profile, defaults and account
    /// merged field by field; nil when none is given (system trust store, the host's name).
    public var tls: TLSClientConfiguration?

    public init(
        name: String, profile: String, userID: String?, tokenSource: TokenSource, deviceID: String,
        settings: SessionSettings, proxy: ProxyAddress? = nil, tls: TLSClientConfiguration? = nil
    ) {
        self.name = name
        self.profile = profile
        self.userID = userID
        self.tokenSource = tokenSource
        self.deviceID = deviceID
        self.platform = settings.platform
        self.timeout = settings.timeout
        self.reconnectKickEnable = settings.reconnectKickEnable
        self.heartbeat = settings.heartbeat
        self.jitter = settings.jitter
        self.backgroundGrace = settings.backgroundGrace
        self.proxy = proxy
        self.tls = tls
    }

    /// `PROFILE/ACCOUNT`, the name the shell knows the account by.
    public var reference: AccountReference { AccountReference(profile: profile, account: name) }

    /// The account's session settings as one value.
    public var settings: SessionSettings {
        SessionSettings(
            timeout: timeout, reconnectKickEnable: reconnectKickEnable, heartbeat: heartbeat, platform: platform, jitter: jitter,
            backgroundGrace: backgroundGrace)
    }

    /// One line for people: reference, user, device, platform, token source, proxy (secrets redacted).
    public var description: String {
        var text = "\(reference) user=\(userID ?? "?") device=\(deviceID) platform=\(platform.rawValue) \(tokenSource)"
        if let proxy { text += " proxy=\(proxy)" }
        return text
    }
}
