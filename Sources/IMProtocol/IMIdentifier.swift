/// Validation of the identifiers the contract constrains.
public enum IMIdentifier {
    /// The longest user id or device id, in bytes.
    public static let maxLength = 64

    /// A user id: 1-64 bytes of `[A-Za-z0-9+=_-]` (section 2, error 33002 otherwise).
    public static func isValidUserID(_ id: String) -> Bool {
        isValid(id) { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "=") }
    }

    /// A device id (MQTT Client Identifier): 1-64 bytes of `[A-Za-z0-9_-]`.
    public static func isValidDeviceID(_ id: String) -> Bool {
        isValid(id) { _ in false }
    }

    private static func isValid(_ id: String, alsoAllowing extra: (UInt8) -> Bool) -> Bool {
        let utf8 = id.utf8
        guard (1...maxLength).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return extra(byte)
            }
        }
    }
}
