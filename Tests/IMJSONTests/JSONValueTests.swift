import IMJSON
import Testing

struct JSONValueTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: #"{"a":[1,-2.5e3,true,false,null,"s"],"b":{},"c":-0,"big":12345678901234567890}"#)
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
        #expect(try JSONValue(parsing: value.encoded()) == value)
    }

    @Test func refusesMalformedText() {
        let bad = ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "tru", "nul", "\"\\x\"", "\"\\u12\"",
            "{a:1}", "[1 2]", "1 2", "\"\u{1}\"", "\"\\udc00\"", "1e999",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40)]
        for text in bad {
            #expect(throws: JSONError.self, "\(text)") { try JSONValue(parsing: text) }
        }
    }

    @Test func repeatedMemberNamesAreRefusedAtTheRepeat() throws {
        // "a" in another object is no repeat; the second "c" is.
        #expect(throws: JSONError("duplicate member \"c\"", at: SourceLocation(line: 2, column: 24))) {
            try JSONValue(parsing: "{\"a\": 1,\n \"b\": {\"c\": 1, \"a\": 2, \"c\": 3}}")
        }
        // The node parser keeps them, in order, for configuration readers to report.
        let node = try JSONParser.parse(#"{"a":1,"a":2}"#)
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "a"])
        #expect(throws: JSONError("duplicate member \"a\"", at: SourceLocation(line: 1, column: 8))) { try JSONValue(node) }
    }

    @Test func nestingIsLimitedToThirtyTwoLevels() throws {
        func nested(_ levels: Int) -> String {
            String(repeating: "[", count: levels) + "1" + String(repeating: "]", count: levels)
        }
        var expected: JSONValue = 1
        for _ in 0..<32 { expected = [expected] }
        #expect(try JSONValue(parsing: nested(32)) == expected)
        #expect(throws: JSONError("nesting deeper than 32 levels", at: SourceLocation(line: 1, column: 33))) {
            try JSONValue(parsing: nested(33))
        }
        // Configuration files may go deeper; the limit is the caller's.
        #expect(throws: Never.self) { try JSONParser.parse(nested(33)) }
    }

    @Test func integersAreExactInInt64AndLargerNumbersAreDoubles() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .integer(.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .integer(.min))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9223372036854775808.0))
        #expect(try JSONValue(parsing: "10e0") == .double(10))
        #expect(try JSONValue(parsing: "1E2") == .double(100))
        #expect(throws: JSONError("number -1e999 out of range", at: SourceLocation(line: 1, column: 2))) {
            try JSONValue(parsing: "[-1e999]")
        }
    }

    @Test func byteOrderMarkIsRefusedInPayloads() {
        #expect(throws: JSONError("expected a value, found byte 0xef", at: SourceLocation(line: 1, column: 1))) {
            try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("true".utf8))
        }
    }
}
