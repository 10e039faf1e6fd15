import Testing
@testable import IMServer

/// The link handshake between two nodes as values: both ends prove the secret, the accepting
/// end proves only to a proven peer, and a hello that names the wrong node is refused.
@Suite struct NodeLinkHandshakeTests {
    let secret = Array("0123456789abcdef0123456789abcdef".utf8)

    @Test func twoEndsWithTheSecretFinish() throws {
        var accepting = try NodeLinkHandshake(node: "a", secret: secret, expected: nil)
        var dialing = try NodeLinkHandshake(node: "b", secret: secret, expected: "a")
        #expect(dialing.opening.isEmpty)
        let answer = try dialing.receive(bytes(try #require(accepting.opening.first)))
        #expect(answer.count == 2)
        #expect(try accepting.receive(bytes(answer[0])).isEmpty, "the accepting end proved before the dialing end did")
        let proof = try accepting.receive(bytes(answer[1]))
        #expect(accepting.step == .done && accepting.peer == "b")
        #expect(try dialing.receive(bytes(try #require(proof.first))).isEmpty)
        #expect(dialing.step == .done && dialing.peer == "a")
    }

    @Test func aDialingEndWithoutTheSecretIsRefused() throws {
        var accepting = try NodeLinkHandshake(node: "a", secret: secret, expected: nil)
        var stranger = try NodeLinkHandshake(node: "b", secret: Array(secret.reversed()), expected: "a")
        let answer = try stranger.receive(bytes(try #require(accepting.opening.first)))
        _ = try accepting.receive(bytes(answer[0]))
        #expect(throws: NodeLinkError.self) { try accepting.receive(bytes(answer[1])) }
    }

    /// A proof made as the dialing end does not pass for the accepting end's: the proofs name
    /// their end, so a stranger cannot have node a, dialing, sign for a as the accepting end.
    @Test func aProofMadeAsTheOtherEndDoesNotPass() throws {
        let accepting = try NodeLinkHandshake(node: "a", secret: secret, expected: nil)
        var dialing = try NodeLinkHandshake(node: "b", secret: secret, expected: "a")
        let answer = try dialing.receive(bytes(try #require(accepting.opening.first)))
        // Node a, dialing b, signs b's challenge as the dialing end.
        var aDialing = try NodeLinkHandshake(node: "a", secret: secret, expected: "b")
        let signed = try aDialing.receive(bytes(answer[0]))
        #expect(throws: NodeLinkError.self) { try dialing.receive(bytes(signed[1])) }
    }

    @Test func helloesNamingThisNodeOrAnotherThanTheOneDialedAreRefused() throws {
        var accepting = try NodeLinkHandshake(node: "a", secret: secret, expected: nil)
        let mine = try NodeLinkHandshake(node: "a", secret: secret, expected: nil)
        #expect(throws: NodeLinkError(reason: "the peer's hello names this node")) {
            try accepting.receive(bytes(try #require(mine.opening.first)))
        }
        var dialing = try NodeLinkHandshake(node: "b", secret: secret, expected: "c")
        #expect(throws: NodeLinkError(reason: "the peer is node a, not c")) {
            try dialing.receive(bytes(try #require(mine.opening.first)))
        }
    }

    private func bytes(_ line: String) -> [UInt8] { Array(line.utf8) }
}
