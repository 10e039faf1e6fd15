/// The `im-error` value naming an IM condition behind a refusal or disconnect (section 2).
///
/// Unknown names survive as raw values; none of the conditions here is retried by the engine.
public struct IMErrorName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Not valid for this app key, bad signature, unparseable. CONNACK 0x86.
    public static let tokenIncorrect = IMErrorName(rawValue: "token-incorrect")
    /// Expired, or issued before the user's invalidation time. CONNACK 0x86.
    public static let tokenExpired = IMErrorName(rawValue: "token-expired")
    /// Blocked: CONNACK 0x8A at connect, DISCONNECT 0x98 while online.
    public static let userBlocked = IMErrorName(rawValue: "user-blocked")
    /// Deactivated: CONNACK 0x87, DISCONNECT 0x98.
    public static let userAbandoned = IMErrorName(rawValue: "user-abandoned")
    /// The app key is blocked or deleted. CONNACK 0x87.
    public static let appBlocked = IMErrorName(rawValue: "app-blocked")
    /// The server does not know the app key. CONNACK 0x87.
    public static let appUnknown = IMErrorName(rawValue: "app-unknown")
    /// Kicked by the admin API. DISCONNECT 0x98.
    public static let kicked = IMErrorName(rawValue: "kicked")
    /// Another device of the same class logged in. DISCONNECT 0x8E.
    public static let otherDeviceLogin = IMErrorName(rawValue: "other-device-login")
    /// Reconnection with `im-kick-enable` refused: another device is online. CONNACK 0x87.
    public static let otherDeviceOnline = IMErrorName(rawValue: "other-device-online")

    /// In PUBACK 0x97: the sender's stored, undelivered messages reached the app's quota.
    /// Not a connection condition, so not among `all`.
    public static let quotaExceeded = IMErrorName(rawValue: "quota-exceeded")

    /// Every name of section 2.
    public static let all: [IMErrorName] = [
        .tokenIncorrect, .tokenExpired, .userBlocked, .userAbandoned, .appBlocked,
        .appUnknown, .kicked, .otherDeviceLogin, .otherDeviceOnline,
    ]

    /// The MQTT reason code the server puts in CONNACK with this name, if it refuses with it.
    public var connackReasonCode: UInt8? {
        switch self {
        case .tokenIncorrect, .tokenExpired: return 0x86
        case .userBlocked: return 0x8A
        case .userAbandoned, .appBlocked, .appUnknown, .otherDeviceOnline: return 0x87
        default: return nil
        }
    }

    /// The MQTT reason code the server puts in DISCONNECT with this name, if it disconnects with it.
    public var disconnectReasonCode: UInt8? {
        switch self {
        case .userBlocked, .userAbandoned, .kicked: return 0x98
        case .otherDeviceLogin: return 0x8E
        default: return nil
        }
    }

    public var description: String { rawValue }
}
