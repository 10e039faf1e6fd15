import IMEncoding
import IMHTTP
import IMProtocol

extension Account {
    /// The device id of an account that sets none: `<account>-<hash>`, stable across runs and machines.
    ///
    /// `<account>` is the account name with each character outside `[A-Za-z0-9_-]` turned into
    /// `_`, cut to 55 bytes; `<hash>` is the first 8 hex digits of SHA-256 of `PROFILE/ACCOUNT`,
    /// so accounts of the same name in two profiles get different devices. The result always
    /// satisfies `IMIdentifier.isValidDeviceID`.
    public static func derivedDeviceID(profile: String, account: String) -> String {
        let allowed = account.utf8.prefix(55).map { byte in
            HostPort.isNameByte(byte) && byte != UInt8(ascii: ".") ? byte : UInt8(ascii: "_")
        }
        let hash = Hex.encode(Array(Crypto.sha256(Array("\(profile)/\(account)".utf8)).prefix(4)))
        return String(decoding: allowed, as: UTF8.self) + "-" + hash
    }
}
