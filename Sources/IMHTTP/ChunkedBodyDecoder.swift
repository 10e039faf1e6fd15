/// Decodes a `Transfer-Encoding: chunked` body (RFC 9112 §7.1) as its bytes arrive.
struct ChunkedBodyDecoder {
    private var body: [UInt8] = []
    private var state = State.size

    private enum State {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
    }

    /// Consumes what it can from `buffer`; returns the whole body once the last chunk and
    /// the trailers have arrived (trailers are dropped), nil while more bytes are needed.
    mutating func decode(_ buffer: inout MessageBuffer, limits: HTTPLimits) throws(HTTPParseError) -> [UInt8]? {
        while true {
            switch state {
            case .size:
                guard let (line, consumed) = try nextLine(buffer, limits: limits) else { return nil }
                let size = try Self.chunkSize(line, remainingBudget: limits.maxBodyBytes - body.count)
                buffer.consume(consumed)
                state = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count)
                guard available > 0 else { return nil }
                body += buffer.take(available)
                state = available == remaining ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard let (line, consumed) = try nextLine(buffer, limits: limits) else { return nil }
                guard line.isEmpty else { throw HTTPParseError(.badGateway, "chunk data longer than its size") }
                buffer.consume(consumed)
                state = .size
            case .trailers:
                guard let (line, consumed) = try nextLine(buffer, limits: limits) else { return nil }
                buffer.consume(consumed)
                if line.isEmpty {
                    state = .size
                    defer { body = [] }
                    return body
                }
            }
        }
    }

    /// The next line, refused once it is longer than `maxHeadBytes` whether or not its end has
    /// arrived: the answer must not depend on how the bytes were split into reads.
    private func nextLine(_ buffer: MessageBuffer, limits: HTTPLimits) throws(HTTPParseError) -> (ArraySlice<UInt8>, Int)? {
        let found = buffer.line(from: 0)
        guard (found?.consumed ?? buffer.count) <= limits.maxHeadBytes else {
            throw HTTPParseError(.badGateway, "chunk line exceeds \(limits.maxHeadBytes) bytes")
        }
        return found
    }

    /// The hex size before any `;extension`, refused above the remaining body budget.
    private static func chunkSize(_ line: ArraySlice<UInt8>, remainingBudget: Int) throws(HTTPParseError) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.trimmingTrailingSpaces
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ ASCII.hexValue($0) != nil }) else {
            throw HTTPParseError(.badGateway, "invalid chunk size")
        }
        let size = digits.reduce(0) { $0 << 4 | Int(ASCII.hexValue($1)!) }
        guard size <= remainingBudget else { throw HTTPParseError(.badGateway, "response body exceeds the limit") }
        return size
    }
}

extension ArraySlice<UInt8> {
    fileprivate var trimmingTrailingSpaces: ArraySlice<UInt8> {
        var slice = self
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
