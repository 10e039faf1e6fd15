/// The names of profiles and accounts: 1-64 characters of `[A-Za-z0-9._-]`, not starting with
/// `.` (hidden files) or `-` (a word that reads as an option: `-rf`).
///
/// Narrow on purpose: names appear in `PROFILE/ACCOUNT`, in file names and in shell words.
public enum ProfileName {
    public static let rule = "names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"

    public static func isValid(_ name: some StringProtocol) -> Bool {
        let utf8 = name.utf8
        guard (1...64).contains(utf8.count), utf8.first != UInt8(ascii: "."), utf8.first != UInt8(ascii: "-") else { return false }
        return utf8.allSatisfy(isNameByte)
    }

    /// `[A-Za-z0-9._-]`: also the characters of host names and, without `.`, of derived device ids.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
