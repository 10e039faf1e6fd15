/// An HTTP status code with its reason phrase; unknown codes survive.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let `continue` = HTTPStatus(rawValue: 100)
    public static let switchingProtocols = HTTPStatus(rawValue: 101)
    public static let ok = HTTPStatus(rawValue: 200)
    public static let noContent = HTTPStatus(rawValue: 204)
    public static let notModified = HTTPStatus(rawValue: 304)
    public static let badRequest = HTTPStatus(rawValue: 400)
    public static let unauthorized = HTTPStatus(rawValue: 401)
    public static let forbidden = HTTPStatus(rawValue: 403)
    public static let notFound = HTTPStatus(rawValue: 404)
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    public static let requestTimeout = HTTPStatus(rawValue: 408)
    public static let payloadTooLarge = HTTPStatus(rawValue: 413)
    public static let expectationFailed = HTTPStatus(rawValue: 417)
    public static let upgradeRequired = HTTPStatus(rawValue: 426)
    public static let tooManyRequests = HTTPStatus(rawValue: 429)
    public static let headerFieldsTooLarge = HTTPStatus(rawValue: 431)
    public static let internalServerError = HTTPStatus(rawValue: 500)
    public static let notImplemented = HTTPStatus(rawValue: 501)
    public static let badGateway = HTTPStatus(rawValue: 502)
    public static let serviceUnavailable = HTTPStatus(rawValue: 503)
    public static let versionNotSupported = HTTPStatus(rawValue: 505)

    /// The standard reason phrase, or a generic one for the class.
    public var reasonPhrase: String {
        switch rawValue {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 417: return "Expectation Failed"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default:
            switch rawValue / 100 {
            case 1: return "Informational"
            case 2: return "Success"
            case 3: return "Redirection"
            case 4: return "Client Error"
            default: return "Server Error"
            }
        }
    }

    /// Whether a response with this status never has a body (1xx, 204, 304).
    public var forbidsBody: Bool {
        (100..<200).contains(rawValue) || rawValue == 204 || rawValue == 304
    }

    public var description: String { "\(rawValue) \(reasonPhrase)" }
}
