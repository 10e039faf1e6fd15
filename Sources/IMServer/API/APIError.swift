import IMHTTP
import IMJSON

/// A request the API refuses: the HTTP status, the answer's code and a message a person can act on.
struct APIError: Error, Hashable, Sendable, CustomStringConvertible {
    var status: HTTPStatus
    var code: APIErrorCode
    var message: String
    /// Extra response headers (`Allow`, `Retry-After`).
    var headers: [NamedValue] = []

    init(_ status: HTTPStatus, code: APIErrorCode? = nil, _ message: String, headers: [NamedValue] = []) {
        self.status = status
        self.code = code ?? APIErrorCode(rawValue: status.rawValue)
        self.message = message
        self.headers = headers
    }

    /// HTTP 400, code 1002: `field` is missing or malformed.
    static func field(_ field: String, _ reason: String) -> APIError {
        APIError(.badRequest, code: .invalidField, "\(field): \(reason)")
    }

    /// HTTP 401, code 1004.
    static func unauthorized(_ reason: String) -> APIError {
        APIError(.unauthorized, code: .signature, reason)
    }

    /// The JSON answer `{"code":…,"errorMessage":"…"}`.
    var response: HTTPResponse {
        let body: JSONValue = ["code": .integer(Int64(code.rawValue)), "errorMessage": .string(message)]
        var response = HTTPResponse.json(status, body.encoded())
        for header in headers { response.headers.add(name: header.name, value: header.value) }
        return response
    }

    var description: String { "\(status.rawValue) (code \(code.rawValue)): \(message)" }
}
