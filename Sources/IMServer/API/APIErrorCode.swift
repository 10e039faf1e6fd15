/// The `code` member of an API answer; unknown values survive.
///
/// The provider's codes where it has one (1002 field, 1004 signature, 1008 rate); otherwise
/// the HTTP status itself, so every answer carries a code.
struct APIErrorCode: RawRepresentable, Hashable, Sendable {
    var rawValue: Int

    static let success = APIErrorCode(rawValue: 200)
    /// The server failed while doing what was asked.
    static let internalError = APIErrorCode(rawValue: 1000)
    /// A form field is missing or malformed (HTTP 400).
    static let invalidField = APIErrorCode(rawValue: 1002)
    /// Signing headers missing or wrong, unknown app key, stale timestamp, reused nonce (HTTP 401).
    static let signature = APIErrorCode(rawValue: 1004)
    /// Too many requests for the app within the replay window (HTTP 503).
    static let rateLimited = APIErrorCode(rawValue: 1008)
}
