/// Decides who stays online when a device logs in: the device policy of contract section 3.
///
/// One session per user per device class. A fresh login kicks the user's other devices of
/// the same class; an automatic reconnection either kicks them too or, when the device asked
/// `im-kick-enable` and the app lets clients choose, is refused so the device already online
/// keeps its place. A second connection with the same client identifier takes the session over.
public struct DevicePolicy: Sendable {
    /// A device of the user that is online now.
    public struct OnlineDevice: Sendable, Equatable {
        public var connectionID: UInt64
        public var clientID: String
        public var platform: String

        public init(connectionID: UInt64, clientID: String, platform: String) {
            self.connectionID = connectionID
            self.clientID = clientID
            self.platform = platform
        }
    }

    /// The device asking to log in.
    public struct Login: Sendable, Equatable {
        public var clientID: String
        public var platform: String
        /// `im-reconnect` was 1: an automatic reconnection, not a user's login.
        public var isReconnection: Bool
        /// `im-kick-enable` was 1: on reconnection, give way to a device already online.
        public var kickEnable: Bool

        public init(clientID: String, platform: String, isReconnection: Bool, kickEnable: Bool) {
            self.clientID = clientID
            self.platform = platform
            self.isReconnection = isReconnection
            self.kickEnable = kickEnable
        }
    }

    /// Why an online connection must go.
    public enum Eviction: Sendable, Equatable {
        /// The same client identifier connected again (MQTT session takeover).
        case sessionTakenOver
        /// Another device of the same class logged in (`other-device-login`).
        case otherDeviceLogin
    }

    /// What the server does with a login.
    public enum Decision: Sendable, Equatable {
        /// Accept the login after disconnecting these connections (0x8E each).
        case accept(evict: [(connectionID: UInt64, reason: Eviction)])
        /// Refuse the login: another device is online and this one asked to give way.
        case refuseOtherDeviceOnline

        public static func == (lhs: Decision, rhs: Decision) -> Bool {
            switch (lhs, rhs) {
            case (.refuseOtherDeviceOnline, .refuseOtherDeviceOnline):
                return true
            case let (.accept(left), .accept(right)):
                return left.count == right.count
                    && zip(left, right).allSatisfy { $0.connectionID == $1.connectionID && $0.reason == $1.reason }
            default:
                return false
            }
        }
    }

    /// Whether the app lets clients choose the reconnection kick policy (a per-app setting).
    public var clientControlsKickPolicy: Bool

    public init(clientControlsKickPolicy: Bool) {
        self.clientControlsKickPolicy = clientControlsKickPolicy
    }

    /// Decides what happens to `online` when `login` arrives.
    public func decide(_ login: Login, online: [OnlineDevice]) -> Decision {
        let sameDevice = online.filter { $0.clientID == login.clientID }
        let rivals = online.filter { $0.clientID != login.clientID && $0.platform == login.platform }
        if login.isReconnection, login.kickEnable, clientControlsKickPolicy, !rivals.isEmpty {
            return .refuseOtherDeviceOnline
        }
        let evict = sameDevice.map { (connectionID: $0.connectionID, reason: Eviction.sessionTakenOver) }
            + rivals.map { (connectionID: $0.connectionID, reason: Eviction.otherDeviceLogin) }
        return .accept(evict: evict)
    }
}
