import IMProfiles
import IMProtocol

extension SecretRedactor {
    /// The shortest text that can be a token: a payload of the five claims and a signature.
    static let minimumTokenLength = 60

    /// `text` with every word that reads as a login token (`TokenClaims`) redacted.
    ///
    /// Words are runs of ASCII letters, digits and `-_.`; only those long enough and holding
    /// a dot are parsed, so a line costs one pass over its bytes.
    static func redactingTokens(in text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= minimumTokenLength, bytes.contains(UInt8(ascii: ".")) else { return text }
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        while index < bytes.count {
            guard isWordByte(bytes[index]) else {
                index += 1
                continue
            }
            let start = index
            var hasDot = false
            while index < bytes.count, isWordByte(bytes[index]) {
                if bytes[index] == UInt8(ascii: ".") { hasDot = true }
                index += 1
            }
            guard hasDot, index - start >= minimumTokenLength else { continue }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            guard (try? TokenClaims.read(word)) != nil else { continue }
            output += bytes[copied..<start]
            output += Array(Secret(word).redacted.utf8)
            copied = index
        }
        guard copied > 0 else { return text }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
