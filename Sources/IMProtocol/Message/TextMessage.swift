import IMJSON

/// The JSON payload of a text message (section 5).
///
/// Sent form: `{"type":"text","text":"…","cid":"…"}`; delivered form adds `"from"`.
/// Encoding writes the members in that order, so equal messages give equal bytes.
public struct TextMessage: Hashable, Sendable {
    /// PUBLISH Content Type of every message payload.
    public static let contentType = "application/json"
    /// The only `type` there is.
    public static let type = "text"
    /// The longest client message id, in bytes.
    public static let maxCIDLength = 128

    public var text: String
    /// The client message id: the sender's key for deduplicating resends.
    public var cid: String
    /// The sender, present in the delivered form only.
    public var from: String?

    public init(text: String, cid: String, from: String? = nil) {
        self.text = text
        self.cid = cid
        self.from = from
    }

    /// The UTF-8 JSON payload.
    ///
    /// Written member by member: every message crosses the server (decoded, then encoded as
    /// delivered), and a `JSONObject` would cost a dictionary each time.
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + cid.utf8.count + (from?.utf8.count ?? 0) + 40)
        output.append(contentsOf: #"{"type":"text","text":"#.utf8)
        JSONValue.encodeString(text, into: &output)
        output.append(contentsOf: #","cid":"#.utf8)
        JSONValue.encodeString(cid, into: &output)
        if let from {
            output.append(contentsOf: #","from":"#.utf8)
            JSONValue.encodeString(from, into: &output)
        }
        output.append(UInt8(ascii: "}"))
        return output
    }

    /// This message as delivered: the same members plus `from`.
    public func delivered(from sender: String) -> TextMessage {
        TextMessage(text: text, cid: cid, from: sender)
    }

    /// Decodes a payload in either form; refuses anything else with a reason.
    ///
    /// Refused: bytes that are not one JSON object, members other than type, text, cid and
    /// from, a `type` other than "text", an empty or over-long `cid`, a `from` that is not a
    /// valid user id. A client's `from` is kept for the server to compare with the sender.
    public static func decode(_ payload: [UInt8]) throws(PayloadError) -> TextMessage {
        let node: JSONNode
        do {
            node = try JSONParser.parse(payload, options: JSONValue.parsingOptions)
        } catch {
            throw PayloadError(error)
        }
        // The parser's members, read in place: at most four, so no dictionary is built.
        guard case .object(let members) = node.value else { throw PayloadError("not a JSON object") }
        var type, text, cid, fromNode: JSONNode?
        for member in members {
            let repeated: Bool
            switch member.key {
            case "type": (repeated, type) = (type != nil, member.value)
            case "text": (repeated, text) = (text != nil, member.value)
            case "cid": (repeated, cid) = (cid != nil, member.value)
            case "from": (repeated, fromNode) = (fromNode != nil, member.value)
            default: throw PayloadError("unknown member \"\(member.key)\"")
            }
            // Two of one member would mean two different messages to two readers.
            guard !repeated else { throw PayloadError(JSONError("duplicate member \"\(member.key)\"", at: member.keyLocation)) }
        }
        guard let type else { throw PayloadError("missing type") }
        guard type.stringValue == Self.type else { throw PayloadError("type must be \"text\"") }
        guard let text = text?.stringValue else { throw PayloadError("text missing or not a string") }
        guard let cid = cid?.stringValue else { throw PayloadError("cid missing or not a string") }
        guard (1...maxCIDLength).contains(cid.utf8.count) else {
            throw PayloadError("cid must be 1-\(maxCIDLength) bytes")
        }
        var from: String?
        if let fromNode {
            guard let sender = fromNode.stringValue, IMIdentifier.isValidUserID(sender) else {
                throw PayloadError("from is not a valid user id")
            }
            from = sender
        }
        return TextMessage(text: text, cid: cid, from: from)
    }

    /// The `text` of the API's `content` form field: a JSON object with a string `text`.
    ///
    /// Other members of `content` are ignored (the provider's content carries extras).
    public static func text(fromAPIContent content: String) throws(PayloadError) -> String {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: content)
        } catch {
            throw PayloadError(error)
        }
        guard let text = value.objectValue?["text"]?.stringValue else {
            throw PayloadError("content must be a JSON object with a string \"text\"")
        }
        return text
    }
}
