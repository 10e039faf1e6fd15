/// Base64 with the standard alphabet and padding (RFC 4648 §4), as HTTP headers such as
/// `Sec-WebSocket-Key` carry it; written over `Base64URL`, which differs only in two symbols
/// and the padding.
public enum Base64 {
    /// The padded encoding of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Array(Base64URL.encode(bytes).utf8).map(toStandard)
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a padded encoding, or nil (strict, as `Base64URL.decode` is).
    public static func decode(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        guard symbols.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        guard !symbols.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "=") }) else {
            return nil
        }
        return Base64URL.decode(String(decoding: symbols.map(toURLSafe), as: UTF8.self))
    }

    private static func toStandard(_ symbol: UInt8) -> UInt8 {
        switch symbol {
        case UInt8(ascii: "-"): return UInt8(ascii: "+")
        case UInt8(ascii: "_"): return UInt8(ascii: "/")
        default: return symbol
        }
    }

    private static func toURLSafe(_ symbol: UInt8) -> UInt8 {
        switch symbol {
        case UInt8(ascii: "+"): return UInt8(ascii: "-")
        case UInt8(ascii: "/"): return UInt8(ascii: "_")
        default: return symbol
        }
    }
}
