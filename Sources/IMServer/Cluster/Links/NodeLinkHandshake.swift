import IMEncoding
import IMJSON

/// The first lines of a link between two nodes of one PostgreSQL database: each side's hello
/// with its name and a fresh challenge, and each side's proof that it knows the database's
/// link secret (`link_secret`), over the other side's challenge.
///
/// The side that accepted sends its hello; the side that dialed answers with its hello and its
/// proof; the accepting side checks that proof and only then sends its own. A hello is
/// `{"link":1,"node":"a1","challenge":"<32 hex digits>"}`, a proof `{"proof":"<64 hex digits>"}`:
/// HMAC-SHA256 under the secret of `imserver-link`, the challenge, the prover's name and its
/// side (`dialed` or `accepted`), each ended by a newline. So neither side takes notices from,
/// nor sends messages to, a process that cannot read the database, and a node proves itself
/// only to a proven peer: proving to anyone who asks would let a stranger have one node sign
/// another node's challenge. A hello naming this node is refused, and the side that dialed
/// requires the name it dialed, so an address reused by another node is not taken for the one
/// it was read for.
struct NodeLinkHandshake {
    /// Where the handshake is.
    enum Step: Equatable { case waitingForHello, waitingForProof, done }

    let node: String
    private let secret: [UInt8]
    private let challenge: String
    /// The node this side dialed, which the other end must be; nil on the accepting side.
    let expected: String?
    /// The other end's name and challenge, once its hello came.
    private(set) var peer: String?
    private var theirChallenge = ""
    private(set) var step = Step.waitingForHello

    init(node: String, secret: [UInt8], expected: String?) throws(CryptoError) {
        self.node = node
        self.secret = secret
        self.expected = expected
        challenge = Hex.encode(try Crypto.randomBytes(16))
    }

    private var side: String { expected == nil ? "accepted" : "dialed" }

    /// The lines this side sends first: the accepting side's hello; none from the side that dialed.
    var opening: [String] { expected == nil ? [hello] : [] }

    private var hello: String {
        Self.line([("link", .integer(1)), ("node", .string(node)), ("challenge", .string(challenge))])
    }

    /// Reads the peer's next handshake line; returns the lines to send back.
    mutating func receive(_ line: [UInt8]) throws(NodeLinkError) -> [String] {
        guard let object = (try? JSONValue(parsing: line))?.objectValue else {
            throw NodeLinkError(reason: "the peer's handshake line is not a JSON object")
        }
        switch step {
        case .waitingForHello:
            guard object["link"]?.integerValue == 1, let name = object["node"]?.stringValue,
                  let theirs = object["challenge"]?.stringValue, theirs.utf8.count == 32
            else { throw NodeLinkError(reason: "the peer's hello is not a version-1 link hello") }
            guard name != node else { throw NodeLinkError(reason: "the peer's hello names this node") }
            if let expected, expected != name {
                throw NodeLinkError(reason: "the peer is node \(name), not \(expected)")
            }
            (peer, theirChallenge, step) = (name, theirs, .waitingForProof)
            return expected == nil ? [] : [hello, proof]
        case .waitingForProof:
            let peerSide = expected == nil ? "dialed" : "accepted"
            guard let peer, let presented = object["proof"]?.stringValue.flatMap(Hex.decode),
                  Crypto.constantTimeEquals(presented, Self.proof(secret: secret, challenge: challenge, prover: peer, side: peerSide))
            else { throw NodeLinkError(reason: "node \(peer ?? "?") did not prove it knows the link secret") }
            step = .done
            return expected == nil ? [proof] : []
        case .done:
            throw NodeLinkError(reason: "a handshake line after the handshake")
        }
    }

    private var proof: String {
        Self.line([("proof", .string(Hex.encode(Self.proof(secret: secret, challenge: theirChallenge, prover: node, side: side))))])
    }

    static func proof(secret: [UInt8], challenge: String, prover: String, side: String) -> [UInt8] {
        Crypto.hmacSHA256(key: secret, message: Array("imserver-link\n\(challenge)\n\(prover)\n\(side)\n".utf8))
    }

    private static func line(_ members: [(String, JSONValue)]) -> String {
        String(decoding: JSONValue.object(JSONObject(members)).encoded(), as: UTF8.self)
    }
}
