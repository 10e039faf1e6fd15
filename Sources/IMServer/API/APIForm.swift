import IMHTTP
import IMProtocol

/// Reads an API request's form fields, refusing a missing or malformed one with HTTP 400
/// code 1002 and a message that names the field and what is wrong with it.
struct APIForm {
    /// The most values a repeatable user id field takes in one request.
    static let maxUserIDs = 1000

    let fields: FormFields

    /// The one value of `name`; present exactly once.
    func single(_ name: String) throws(APIError) -> String {
        let values = fields.values(name)
        guard let value = values.first else { throw .field(name, "missing") }
        guard values.count == 1 else { throw .field(name, "given \(values.count) times, expected once") }
        return value
    }

    /// A user id: 1-64 bytes of `[A-Za-z0-9+=_-]`.
    func userID(_ name: String) throws(APIError) -> String {
        let value = try single(name)
        try Self.checkUserID(value, field: name)
        return value
    }

    /// One or more user ids (the field repeated), duplicates dropped, in order.
    func userIDs(_ name: String) throws(APIError) -> [String] {
        let values = fields.values(name)
        guard !values.isEmpty else { throw .field(name, "missing") }
        guard values.count <= Self.maxUserIDs else {
            throw .field(name, "given \(values.count) times, at most \(Self.maxUserIDs) allowed")
        }
        var seen: Set<String> = []
        var ids: [String] = []
        for value in values {
            try Self.checkUserID(value, field: name)
            if seen.insert(value).inserted { ids.append(value) }
        }
        return ids
    }

    /// A whole number of plain decimal digits within `range`.
    func integer(_ name: String, in range: ClosedRange<Int64>, unit: String = "") throws(APIError) -> Int64 {
        let text = try single(name)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(text)
        else {
            throw .field(name, "'\(Self.excerpt(text))' is not a whole number\(unit)")
        }
        guard range.contains(value) else {
            throw .field(name, "\(value) is out of range \(range.lowerBound)-\(range.upperBound)\(unit)")
        }
        return value
    }

    /// Text of 1 to `maxBytes` bytes of UTF-8.
    func text(_ name: String, maxBytes: Int) throws(APIError) -> String {
        let value = try single(name)
        guard !value.isEmpty else { throw .field(name, "empty") }
        guard value.utf8.count <= maxBytes else { throw .field(name, "longer than \(maxBytes) bytes") }
        return value
    }

    private static func checkUserID(_ value: String, field: String) throws(APIError) {
        guard IMIdentifier.isValidUserID(value) else {
            throw .field(field, "'\(excerpt(value))' is not a user id (1-\(IMIdentifier.maxLength) characters of A-Z a-z 0-9 + = _ -)")
        }
    }

    /// A short, single-line rendering of a client's value for an error message.
    private static func excerpt(_ value: String) -> String {
        let printable = String(value.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return value.unicodeScalars.count > 40 ? printable + "…" : printable
    }
}
