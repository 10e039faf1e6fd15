import IMProtocol
import Testing

struct JSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2.5e3,true,false,null,"s"],"b":{},"c":-0,"big":12345678901234567890}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b", "c", "big"])
        #expect(object["a"] == [1, -2500.0, true, false, nil, "s"])
        #expect(object["b"] == .object(JSONObject()))
        #expect(object["c"] == .integer(0))
        #expect(object["big"] == .double(1.2345678901234567e19))
    }

    @Test func encodingIsCompactOrderedAndEscaped() {
        let value: JSONValue = ["z": 1, "a": ["x\u{1}\t", 2.5, nil], "m": true]
        #expect(value.jsonText == #"{"z":1,"a":["x\u0001\t",2.5,null],"m":true}"#)
        #expect(JSONValue.double(.nan).jsonText == "null")
    }

    @Test func roundTripsThroughText() throws {
        let value: JSONValue = ["code": 200, "userId": "a=b", "nested": ["list": [1, "two", ["three": nil]]]]
        #expect(try JSONParser.parse(value.encoded()) == value)
    }

    @Test func refusesMalformedText() {
        let bad = ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "tru", "nul", "\"\\x\"", "\"\\u12\"",
            "{a:1}", "[1 2]", "1 2", "\"\u{1}\"", "\"\\udc00\"", "1e999",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40)]
        for text in bad {
            #expect(throws: JSONError.self, "\(text)") { try JSONParser.parse(text) }
        }
    }
}
