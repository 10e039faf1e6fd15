import Foundation
import IMProtocol
import IMTransport
import Testing

/// The page's WEBSOCKET section held to the code: every close code the WebSocket layer sends
/// and every HTTP status its upgrade refuses with has a row, with the defaults of the URLs.
extension ProtocolPageTests {
    /// The names of `Type.name` arguments that `call(` gets in `path`, such as `refuse(.notFound`.
    static func arguments(of call: String, in path: String) throws -> Set<String> {
        let pattern = try Regex("\(call)\\(\\.(\\w+)")
        return Set(read(path).matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) })
    }

    @Test func everyCloseCodeTheWebSocketLayerSendsHasARow() throws {
        let directory = "Sources/IMTransport/WebSocket/"
        let definitions = try Self.definitions(of: "WebSocketCloseCode", in: directory + "WebSocketCloseCode.swift")
        var sent = try Self.arguments(of: "WebSocketError", in: directory + "WebSocketFrame.swift")
        sent.formUnion(try Self.arguments(of: "WebSocketError", in: directory + "WebSocketStream+Frames.swift"))
        sent.formUnion(try Self.arguments(of: "sendClose", in: directory + "WebSocketStream.swift"))
        #expect(sent.count >= 5, "the codes are read from the source: \(sent)")
        for name in sent {
            let value = try #require(definitions.first { $0.name == name }?.value, "\(name) is defined")
            let code = WebSocketCloseCode(rawValue: UInt16(value)!)
            let words = code.description.split(separator: "(").last.map { String($0.dropLast()) } ?? ""
            #expect(Self.rows(value).contains { $0.count == 2 && $0[1].hasPrefix(words + ":") }, "close code \(code) has a row")
        }
    }

    @Test func everyStatusARefusedUpgradeGetsHasARow() throws {
        let definitions = try Self.definitions(of: "HTTPStatus", in: "Sources/IMHTTP/HTTPStatus.swift")
        let refused = try Self.arguments(of: "refuse", in: "Sources/IMTransport/WebSocket/WebSocketHandshake.swift")
        #expect(refused.count >= 4, "the statuses are read from the source: \(refused)")
        for name in refused {
            let value = try #require(definitions.first { $0.name == name }?.value, "\(name) is defined")
            #expect(Self.rows(value).contains { $0.count == 2 }, "HTTP \(value) has a row in WEBSOCKET")
        }
    }

    @Test func theWebSocketDefaultsAreThoseOfTheCode() {
        #expect(Self.page.contains("addresses (port \(ServerAddress.defaultWebSocketPort), path\n.Pa \(ServerAddress.defaultWebSocketPath)"))
        #expect(Self.page.contains("over TLS (port \(ServerAddress.defaultSecureWebSocketPort);"))
        #expect(Self.page.contains("frames carry at most \(WebSocketSettings.maxOutgoingFrame / 1024) KiB"))
        #expect(WebSocketSettings.defaultPath == ServerAddress.defaultWebSocketPath)
    }
}
