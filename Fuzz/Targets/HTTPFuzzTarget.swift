// libFuzzer target for the HTTP/1.x codec (Sources/IMHTTP).
//
// Every input goes to four consumers, so one corpus covers them all. Oracles:
// - `HTTPRequestParser` and `HTTPResponseParser` fed the input whole, a byte at a time and in
//   pseudo-random pieces give the same messages, then the same error or the same bytes left;
// - a parsed request serializes to bytes that parse back to the same request (its
//   Content-Length rewritten, which `serialized()` does by design); no body exceeds the limit;
// - `FormFields(decoding:)` either throws at an offset inside the input or decodes to fields
//   whose `encoded()` form decodes to the same fields;
// - `HTTPURL(parsing:)` either throws or gives a URL whose description parses to the same URL;
// - the upgrade path: `nextUpgradeHead()` fed whole, a byte at a time and in pieces gives the
//   same head (a 101 included) or error, and `takeBufferedBytes()` then gives the same bytes,
//   which are exactly the input after the head; a request parser's leftover bytes likewise.
import IMHTTP

/// libFuzzer calls this once per input; a return of 0 keeps the input eligible for the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func httpFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HTTPFuzzTarget.run(fuzzInput(data, size))
    return 0
}

enum HTTPFuzzTarget {
    /// Small limits, so that inputs of a few KiB reach every limit check.
    static let limits = HTTPLimits(maxHeadBytes: 256, maxHeaderCount: 8, maxBodyBytes: 512)

    /// What a parser made of a stream: its messages, then how it stopped.
    struct Outcome<Message: Equatable>: Equatable {
        var messages: [Message] = []
        var error: HTTPParseError?
        var leftOver = 0
        /// For responses: what `finish()` returned once the stream ended.
        var finished: Message?
    }

    static func run(_ bytes: [UInt8]) {
        checkRequests(bytes)
        checkResponses(bytes)
        checkForm(bytes)
        checkURL(bytes)
        checkUpgradeHeads(bytes)
    }

    // MARK: Upgrades (WebSocket)

    struct UpgradeOutcome: Equatable {
        var head: HTTPResponse?
        var error: HTTPParseError?
        var rest: [UInt8] = []
    }

    static func checkUpgradeHeads(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { feeding in
            var parser = HTTPResponseParser(limits: limits)
            var outcome = UpgradeOutcome()
            for piece in feeding.pieces(of: bytes) {
                parser.append(piece)
                do throws(HTTPParseError) {
                    if outcome.head == nil, let head = try parser.nextUpgradeHead() { outcome.head = head }
                } catch {
                    outcome.error = error
                    return outcome
                }
            }
            if outcome.head != nil { outcome.rest = parser.takeBufferedBytes() }
            return outcome
        }
        for (feeding, outcome) in zip(Feeding.allCases, outcomes) where outcome != outcomes[0] {
            fuzzFailure("upgrade heads fed \(feeding) gave \(outcome), fed whole \(outcomes[0])")
        }
        if outcomes[0].head != nil, outcomes[0].rest != Array(bytes.suffix(outcomes[0].rest.count)) {
            fuzzFailure("the bytes after an upgrade head are not the input's tail")
        }
        var requests = HTTPRequestParser(limits: limits)
        requests.append(bytes)
        if (try? requests.nextRequest()) != nil {
            let count = requests.bufferedByteCount
            let rest = requests.takeBufferedBytes()
            if rest.count != count || rest != Array(bytes.suffix(count)) || requests.bufferedByteCount != 0 {
                fuzzFailure("a request parser's leftover bytes are not the input's tail")
            }
        }
    }

    static func checkSame<Message>(_ what: String, _ outcomes: [Outcome<Message>]) {
        for (feeding, outcome) in zip(Feeding.allCases, outcomes) where outcome != outcomes[0] {
            fuzzFailure("\(what) fed \(feeding) gave \(outcome), fed whole \(outcomes[0])")
        }
    }

    // MARK: Requests

    static func checkRequests(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { parseRequests($0.pieces(of: bytes)) }
        checkSame("the request parser", outcomes)
        for request in outcomes[0].messages {
            if request.body.count > limits.maxBodyBytes { fuzzFailure("request body of \(request.body.count) bytes") }
            checkReserialized(request)
            _ = (request.path, request.keepAlive)
            if let query = request.query { _ = try? FormFields(decoding: query) }
        }
    }

    static func parseRequests(_ pieces: [ArraySlice<UInt8>], limits: HTTPLimits = limits) -> Outcome<HTTPRequest> {
        var parser = HTTPRequestParser(limits: limits)
        var outcome = Outcome<HTTPRequest>()
        for piece in pieces {
            parser.append(piece)
            do {
                while let request = try parser.nextRequest() { outcome.messages.append(request) }
            } catch {
                outcome.error = error
                return outcome
            }
            _ = parser.takeContinueExpectation()
        }
        outcome.leftOver = parser.bufferedByteCount
        return outcome
    }

    /// `serialized()` writes CRLF and may add Content-Length, so the copy may be longer than
    /// the original: it is read back with room to spare.
    static func checkReserialized(_ request: HTTPRequest) {
        let roomy = HTTPLimits(maxHeadBytes: 4 * limits.maxHeadBytes, maxHeaderCount: limits.maxHeaderCount + 1, maxBodyBytes: limits.maxBodyBytes)
        let wire = request.serialized()
        let again = parseRequests([wire[...]], limits: roomy)
        var expected = request
        expected.headers.remove("Content-Length")
        var found = again.messages.first
        found?.headers.remove("Content-Length")
        guard again.messages.count == 1, again.error == nil, again.leftOver == 0, found == expected else {
            fuzzFailure("\(request) serialized as \(wire) parses as \(again)")
        }
    }

    // MARK: Responses

    static func checkResponses(_ bytes: [UInt8]) {
        let outcomes = Feeding.allCases.map { parseResponses($0.pieces(of: bytes)) }
        checkSame("the response parser", outcomes)
        for response in outcomes[0].messages + [outcomes[0].finished].compactMap({ $0 }) {
            if response.body.count > limits.maxBodyBytes { fuzzFailure("response body of \(response.body.count) bytes") }
            _ = (response.keepAlive, response.status.reasonPhrase, response.serialized())
        }
    }

    static func parseResponses(_ pieces: [ArraySlice<UInt8>]) -> Outcome<HTTPResponse> {
        var parser = HTTPResponseParser(limits: limits)
        var outcome = Outcome<HTTPResponse>()
        do {
            for piece in pieces {
                parser.append(piece)
                while let response = try parser.nextResponse() { outcome.messages.append(response) }
            }
            outcome.finished = try parser.finish()
        } catch {
            outcome.error = error
        }
        return outcome
    }

    // MARK: Forms and URLs

    static func checkForm(_ bytes: [UInt8]) {
        let form: FormFields
        do {
            form = try FormFields(decoding: bytes)
        } catch {
            if !(0...bytes.count).contains(error.offset) { fuzzFailure("\(error) is outside \(bytes.count) bytes") }
            return
        }
        checkReadsBack(form, written: form.encoded()) { text throws(FormDecodingError) in try FormFields(decoding: text) }
    }

    static func checkURL(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self), let url = try? HTTPURL(parsing: text) else { return }
        checkReadsBack(url, written: url.text) { text throws(URLParseError) in try HTTPURL(parsing: text) }
    }
}
