/// The start line and header fields of one message, split and checked for syntax.
struct MessageHead {
    var startLine: ArraySlice<UInt8>
    var headers: HTTPHeaders

    /// Takes the next head out of `buffer` once it has fully arrived; nil while it has not.
    ///
    /// A head longer than `limits.maxHeadBytes` fails as soon as that many bytes are buffered
    /// without its end: with 431 for requests (`failure` 400), else with `failure`.
    static func read(from buffer: inout MessageBuffer, limits: HTTPLimits, failure: HTTPStatus) throws(HTTPParseError) -> MessageHead? {
        buffer.skipLeadingEmptyLines()
        let headLength = buffer.headLength()
        guard (headLength ?? buffer.count) <= limits.maxHeadBytes else {
            let status = failure == .badRequest ? HTTPStatus.headerFieldsTooLarge : failure
            throw HTTPParseError(status, "message head exceeds \(limits.maxHeadBytes) bytes")
        }
        guard let headLength else { return nil }
        let head = try MessageHead(buffer.slice(from: 0, count: headLength), limits: limits, failure: failure)
        buffer.consume(headLength)
        return head
    }

    /// Splits `bytes` (a whole head, blank line included) into lines and fields.
    ///
    /// Refused with `failure`'s status: bare CR, NUL or other control bytes, folded lines,
    /// names that are not tokens or with space before the colon, too many fields.
    init(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits, failure: HTTPStatus) throws(HTTPParseError) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        // The head ends with "\n\n" (or CRLF CRLF): the split leaves two empty pieces at the end.
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else { throw HTTPParseError(failure, "empty start line") }
        startLine = first
        headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard headers.count < limits.maxHeaderCount else {
                throw HTTPParseError(failure == .badRequest ? .headerFieldsTooLarge : failure, "more than \(limits.maxHeaderCount) header fields")
            }
            let (name, value) = try Self.field(line, failure: failure)
            headers.add(name: name, value: value)
        }
        guard !startLine.contains(where: Self.isForbiddenControl) else {
            throw HTTPParseError(failure, "control character in the start line")
        }
    }

    private static func field(_ line: ArraySlice<UInt8>, failure: HTTPStatus) throws(HTTPParseError) -> (String, String) {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw HTTPParseError(failure, "folded header lines are not accepted")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw HTTPParseError(failure, "header line without ':'")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            throw HTTPParseError(failure, "invalid header name")
        }
        let value = line[(colon + 1)...]
        guard !value.contains(where: isForbiddenControl) else {
            throw HTTPParseError(failure, "control character in header \(String(decoding: name, as: UTF8.self))")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingSpaces)
    }

    /// CTLs other than HTAB, which the grammar allows inside field values.
    static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// RFC 9110 `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The body length from `Content-Length`: nil when absent; refused when not digits,
    /// when copies disagree, or above `limit` (checked before anything is allocated).
    func contentLength(limit: Int, failure: HTTPStatus, tooLarge: HTTPStatus) throws(HTTPParseError) -> Int? {
        let elements = headers.values("Content-Length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard !elements.isEmpty else { return nil }
        var length: Int?
        for element in elements {
            let text = element.trimmingSpaces
            guard !text.isEmpty, text.utf8.allSatisfy(ASCII.isDigit) else {
                throw HTTPParseError(failure, "Content-Length is not a number")
            }
            // Digits beyond what fits are over any limit anyway.
            let value = Int(text) ?? Int.max
            if let length, length != value {
                throw HTTPParseError(failure, "conflicting Content-Length values")
            }
            length = value
        }
        if let length, length > limit {
            throw HTTPParseError(tooLarge, "body of \(length) bytes exceeds the limit of \(limit)")
        }
        return length
    }
}
