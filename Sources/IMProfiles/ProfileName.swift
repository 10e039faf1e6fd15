import IMHTTP

/// The names of profiles and accounts: 1-64 characters of `[A-Za-z0-9._-]`, not starting with
/// `.` (hidden files) or `-` (a word that reads as an option: `-rf`).
///
/// Narrow on purpose: names appear in `PROFILE/ACCOUNT`, in file names and in shell words.
public enum ProfileName {
    public static let rule = "names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"

    public static func isValid(_ name: some StringProtocol) -> Bool {
        let utf8 = name.utf8
        guard (1...64).contains(utf8.count), utf8.first != UInt8(ascii: "."), utf8.first != UInt8(ascii: "-") else { return false }
        return utf8.allSatisfy(HostPort.isNameByte)
    }
}
