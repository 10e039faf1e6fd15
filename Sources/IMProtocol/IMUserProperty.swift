/// The MQTT User Property names of the contract (sections 1, 2 and 5).
public enum IMUserProperty {
    /// CONNECT: the device class, a `Platform` raw value; absent means `mobile`.
    public static let platform = "im-platform"
    /// CONNECT: `1` on an automatic reconnection.
    public static let reconnect = "im-reconnect"
    /// CONNECT: `1` when a reconnection must not kick the device that is online.
    public static let kickEnable = "im-kick-enable"
    /// CONNACK: the user id the token belongs to.
    public static let userID = "im-user-id"
    /// CONNACK / DISCONNECT: the IM condition, an `IMErrorName` raw value.
    public static let error = "im-error"
    /// Delivery PUBLISH: the server's message uid.
    public static let messageUID = "im-msg-uid"
    /// Delivery PUBLISH: when the server stored the message, in ms since the epoch.
    public static let sentAt = "im-sent-at"
    /// The client's final DISCONNECT: `off` when the device wants no push notifications until
    /// it logs in again (`disconnect --disable-push`); its messages are kept all the same.
    public static let push = "im-push"
    /// The value of `im-push` that turns push off.
    public static let pushOff = "off"

    /// The value of the flag properties (`im-reconnect`, `im-kick-enable`) when set.
    public static let flagSet = "1"
}
