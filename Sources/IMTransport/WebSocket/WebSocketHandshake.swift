import IMEncoding
import IMHTTP

/// The HTTP/1.1 upgrade that opens a WebSocket (RFC 6455 section 4), with `mqtt` as the
/// subprotocol (MQTT 5 section 6): the client's request, the server's answer, the client's check.
enum WebSocketHandshake {
    static let subprotocol = "mqtt"
    private static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`.
    static func acceptValue(for key: String) -> String {
        Base64.encode(Crypto.sha1(Array((key + acceptGUID).utf8)))
    }

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64.
    static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The client's upgrade request for `path` on `host:port`.
    static func request(host: String, port: UInt16, path: String, key: String) -> HTTPRequest {
        let hostField = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return HTTPRequest(method: "GET", target: path, headers: [
            "Host": hostField, "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13", "Sec-WebSocket-Protocol": subprotocol,
        ])
    }

    /// The server's answer to `request`: 101 to switch, or the status that says why not
    /// (with the reason as its text body).
    static func response(to request: HTTPRequest, path: String) -> (HTTPResponse, reason: String?) {
        func refuse(_ status: HTTPStatus, _ reason: String, _ headers: HTTPHeaders = [:]) -> (HTTPResponse, reason: String?) {
            var headers = headers
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            return (HTTPResponse(status: status, headers: headers, body: Array((reason + "\n").utf8)), reason)
        }
        guard request.method == "GET" else {
            return refuse(.methodNotAllowed, "a WebSocket upgrade is a GET request", ["Allow": "GET"])
        }
        guard request.path == path else { return refuse(.notFound, "MQTT over WebSocket is served at \(path)") }
        guard request.version == .http1_1, request.headers.containsToken("websocket", in: "Upgrade"),
              request.headers.containsToken("upgrade", in: "Connection") else {
            return refuse(.upgradeRequired, "this endpoint serves MQTT over WebSocket only: send an Upgrade: websocket request",
                          ["Upgrade": "websocket", "Connection": "Upgrade"])
        }
        guard request.headers["Sec-WebSocket-Version"] == "13" else {
            return refuse(.upgradeRequired, "only WebSocket version 13 is served", ["Sec-WebSocket-Version": "13"])
        }
        guard let key = request.headers["Sec-WebSocket-Key"], Base64.decode(key)?.count == 16 else {
            return refuse(.badRequest, "Sec-WebSocket-Key is missing or is not 16 bytes of base64")
        }
        guard request.headers.containsToken(subprotocol, in: "Sec-WebSocket-Protocol") else {
            return refuse(.badRequest, "Sec-WebSocket-Protocol must offer mqtt")
        }
        return (HTTPResponse(status: .switchingProtocols, headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": acceptValue(for: key),
            "Sec-WebSocket-Protocol": subprotocol,
        ]), nil)
    }

    /// Checks the server's answer to a request sent with `key`.
    static func check(_ response: HTTPResponse, key: String) throws(WebSocketFailure) {
        guard response.status == .switchingProtocols else { throw .notUpgraded(response.status) }
        guard response.headers.containsToken("websocket", in: "Upgrade"),
              response.headers.containsToken("upgrade", in: "Connection") else {
            throw .badHandshake("101 without Upgrade: websocket and Connection: Upgrade")
        }
        guard response.headers["Sec-WebSocket-Accept"] == acceptValue(for: key) else {
            throw .badHandshake("Sec-WebSocket-Accept does not match the key sent")
        }
        let chosen = response.headers["Sec-WebSocket-Protocol"]
        guard chosen == subprotocol else { throw .wrongSubprotocol(chosen) }
    }
}
