/// The device class of `im-platform`: one session per user per class.
public enum Platform: String, Sendable, CaseIterable {
    case mobile
    case pc
    case web

    /// The class when a CONNECT carries no `im-platform`.
    public static let `default` = Platform.mobile
}
