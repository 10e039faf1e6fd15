import IMProtocol
import Testing

struct TextMessageTests {
    private func decode(_ json: String) throws(PayloadError) -> TextMessage {
        try TextMessage.decode(Array(json.utf8))
    }

    @Test func encodesBothFormsDeterministically() {
        let sent = TextMessage(text: "hi \"you\"\n", cid: "c-1")
        #expect(String(decoding: sent.encoded(), as: UTF8.self) == #"{"type":"text","text":"hi \"you\"\n","cid":"c-1"}"#)
        let delivered = sent.delivered(from: "alice")
        #expect(String(decoding: delivered.encoded(), as: UTF8.self)
            == #"{"type":"text","text":"hi \"you\"\n","cid":"c-1","from":"alice"}"#)
    }

    @Test func decodesWhatItEncodes() throws {
        for message in [
            TextMessage(text: "", cid: "x"),
            TextMessage(text: "日本語 🙂 \u{0}\u{1F}\\/", cid: "c", from: "bob"),
        ] {
            #expect(try TextMessage.decode(message.encoded()) == message)
        }
    }

    @Test func acceptsOtherMemberOrderWhitespaceAndEscapes() throws {
        let message = try decode(" { \"cid\" : \"1\", \"text\" : \"\\u00e9\\ud83d\\ude42\", \"type\" : \"text\" } ")
        #expect(message == TextMessage(text: "é🙂", cid: "1"))
    }

    @Test func refusesAnythingElseWithAReason() {
        let refused = [
            "", "null", "[]", "\"text\"", "{}",
            #"{"type":"image","text":"a","cid":"1"}"#,
            #"{"text":"a","cid":"1"}"#,
            #"{"type":"text","cid":"1"}"#,
            #"{"type":"text","text":5,"cid":"1"}"#,
            #"{"type":"text","text":"a"}"#,
            #"{"type":"text","text":"a","cid":""}"#,
            #"{"type":"text","text":"a","cid":1}"#,
            #"{"type":"text","text":"a","cid":"1","extra":true}"#,
            #"{"type":"text","text":"a","cid":"1","from":"bad/user"}"#,
            #"{"type":"text","text":"a","text":"b","cid":"1"}"#,
            #"{"type":"text","text":"a","cid":"1"} trailing"#,
            #"{"type":"text","text":"\ud800","cid":"1"}"#,
            "{\"type\":\"text\",\"text\":\"a\nb\",\"cid\":\"1\"}",
            #"{"type":"text","text":"a","cid":"\#(String(repeating: "c", count: 129))"}"#,
        ]
        for json in refused {
            #expect(throws: PayloadError.self, "\(json)") { try decode(json) }
        }
        #expect(throws: PayloadError.self) { try TextMessage.decode([0x7B, 0x22, 0xFF, 0x22, 0x7D]) }
        do {
            _ = try decode(#"{"type":"text","text":"a","cid":"1","extra":true}"#)
        } catch {
            #expect(error.reason.contains("extra"))
        }
        let repeated = #expect(throws: PayloadError.self) { try decode(#"{"type":"text","text":"a","cid":"1","cid":"2"}"#) }
        #expect(repeated?.reason.contains("duplicate member \"cid\"") == true)
    }

    @Test func apiContentYieldsItsText() throws {
        #expect(try TextMessage.text(fromAPIContent: #"{"text":"hello","extra":"x"}"#) == "hello")
        #expect(throws: PayloadError.self) { try TextMessage.text(fromAPIContent: #"{"content":"hello"}"#) }
        #expect(throws: PayloadError.self) { try TextMessage.text(fromAPIContent: "hello") }
    }
}
