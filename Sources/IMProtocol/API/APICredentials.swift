/// The signing headers of one API request (section 6), read and checked for form.
///
/// The server still has to look up the app secret, call `isSigned(withSecret:)`, check
/// `isFresh(now:)` and remember the nonce for the window to refuse replays (all HTTP 401).
public struct APICredentials: Hashable, Sendable {
    /// Header names; each is also accepted with `legacyPrefix`.
    public static let appKeyHeader = "App-Key"
    public static let nonceHeader = "Nonce"
    public static let timestampHeader = "Timestamp"
    public static let signatureHeader = "Signature"
    public static let legacyPrefix = "RC-"
    /// The longest nonce accepted.
    public static let maxNonceLength = 18
    /// How far the timestamp may be from the server's clock, in ms (±5 min).
    public static let freshnessWindow: Int64 = 5 * 60 * 1000

    public var appKey: String
    public var nonce: String
    /// The header text as signed.
    public var timestamp: String
    /// The timestamp in ms since the epoch.
    public var timestampMillis: Int64
    public var signature: String

    /// Reads the headers through `header`, a case-insensitive lookup by name.
    public init(header: (String) -> String?) throws(APICredentialError) {
        func value(_ name: String) throws(APICredentialError) -> String {
            guard let text = header(name) ?? header(Self.legacyPrefix + name), !text.isEmpty else {
                throw .missing(name)
            }
            return text
        }
        appKey = try value(Self.appKeyHeader)
        nonce = try value(Self.nonceHeader)
        timestamp = try value(Self.timestampHeader)
        signature = try value(Self.signatureHeader)
        guard nonce.utf8.count <= Self.maxNonceLength else {
            throw .invalid(Self.nonceHeader, "longer than \(Self.maxNonceLength) characters")
        }
        guard timestamp.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let millis = Int64(timestamp)
        else {
            throw .invalid(Self.timestampHeader, "not a number of milliseconds")
        }
        timestampMillis = millis
    }

    /// Whether the signature matches `appSecret` (constant time).
    public func isSigned(withSecret appSecret: String) -> Bool {
        APISignature.isValid(signature, appSecret: appSecret, nonce: nonce, timestamp: timestamp)
    }

    /// Whether the timestamp lies within `window` ms of `now` (ms since the epoch).
    public func isFresh(now: Int64, window: Int64 = freshnessWindow) -> Bool {
        let (difference, overflow) = now.subtractingReportingOverflow(timestampMillis)
        return !overflow && difference.magnitude <= window.magnitude
    }
}

/// A signing header that is missing or unusable; the server answers HTTP 401.
public enum APICredentialError: Error, Hashable, Sendable, CustomStringConvertible {
    case missing(String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .missing(let name): return "missing header \(name)"
        case .invalid(let name, let reason): return "header \(name) invalid: \(reason)"
        }
    }
}
