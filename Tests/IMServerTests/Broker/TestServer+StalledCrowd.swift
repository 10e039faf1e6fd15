import IMProtocol
import IMTransport
import Testing
import TestSupport

extension TestServer {
    /// While `sockets` stall half-way (a handshake, an upgrade), alice and bob log in and a
    /// text reaches bob; then every stalled connection is closed within 15 s, and alice is
    /// still served. `tls` and `webSocket` choose the listener, as `loggedIn` does.
    func expectServed(despite sockets: SilentSockets, what: String, tls: TLSConnectSettings? = nil, webSocket: Bool = false) async throws {
        let alice = try await loggedIn("alice", device: "phone-a", tls: tls, webSocket: webSocket)
        let bob = try await loggedIn("bob", device: "phone-b", tls: tls, webSocket: webSocket)
        #expect(try await alice.sendText("through the stalled crowd", to: "bob", cid: "c1", packetID: 1) == .success)
        guard case .publish(let delivery)? = await bob.next() else {
            Issue.record("bob got nothing")
            return
        }
        #expect(try TextMessage.decode(delivery.payload).text == "through the stalled crowd")
        let open = try await offPool { try sockets.awaitClosing(timeout: .seconds(15)) }
        #expect(open == 0, "\(open) stalled \(what) not closed")
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)
    }
}
