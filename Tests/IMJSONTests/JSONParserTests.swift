import IMJSON
import Testing

struct JSONParserTests {
    @Test func parsesEveryKindOfValueWithPositions() throws {
        let text = """
        {
          "name": "dev",
          "n": -12.5e3,
          "ok": true,
          "list": [1, null, false],
          "nested": {"esc": "a\\"b\\\\c\\u00e9\\ud83d\\ude00\\n"}
        }
        """
        let root = try JSONParser.parse(text)
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["name", "n", "ok", "list", "nested"])
        #expect(members[0].keyLocation == SourceLocation(line: 2, column: 3))
        #expect(members[0].value == JSONNode(.string("dev"), at: SourceLocation(line: 2, column: 11)))
        #expect(members[1].value.value == .number("-12.5e3"))
        #expect(members[2].value.value == .bool(true))
        #expect(members[3].value.value == .array([
            JSONNode(.number("1"), at: SourceLocation(line: 5, column: 12)),
            JSONNode(.null, at: SourceLocation(line: 5, column: 15)),
            JSONNode(.bool(false), at: SourceLocation(line: 5, column: 21)),
        ]))
        guard case .object(let nested) = members[4].value.value else { Issue.record("nested"); return }
        #expect(nested[0].value.value == .string("a\"b\\cé😀\n"))
    }

    @Test(arguments: [
        ("", "1:1: expected a value, found end of file"),
        ("{", "1:2: expected a member name in double quotes, found end of file"),
        ("{\"a\" 1}", "1:6: expected ':' after member name \"a\", found '1'"),
        ("{\"a\": 1,}", "1:9: expected a member name in double quotes, found '}'"),
        ("[1 2]", "1:4: expected ',' or ']' in array, found '2'"),
        ("{\"a\":\n  tru}", "2:3: expected true, found 't'"),
        ("01", "1:3: numbers may not have leading zeros"),
        ("1.", "1:3: expected digits after the decimal point"),
        ("\"abc", "1:5: unterminated string"),
        ("\"a\nb\"", "1:3: unterminated string (line break inside)"),
        ("\"\\x\"", "1:3: unknown escape '\\x' in string"),
        ("\"\\ud800\"", "1:8: unpaired surrogate \\ud800 in string"),
        ("{} x", "1:4: unexpected 'x' after the end of the document"),
    ])
    func syntaxErrorsSayWhereAndWhy(text: String, expected: String) {
        #expect(throws: (any Error).self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func invalidUTF8IsAnError() {
        #expect(throws: JSONError("invalid UTF-8 in string", at: SourceLocation(line: 1, column: 4))) {
            try JSONParser.parse([0x22, 0x61, 0xFF, 0x22])
        }
    }

    /// ASCII runs are copied unchecked, others checked: a string mixing them, around escapes,
    /// reads back whole, and a bad byte after an escape is still found.
    @Test func runsOfAsciiAndOtherUTF8AroundEscapes() throws {
        #expect(try JSONParser.parse(#""plain \u00e9t\u00e9 wörld ok""#).value == .string("plain été wörld ok"))
        #expect(try JSONParser.parse(#""\n日本""#).value == .string("\n日本"))
        #expect(throws: JSONError("invalid UTF-8 in string", at: SourceLocation(line: 1, column: 7))) {
            try JSONParser.parse([0x22, 0x61, 0x5C, 0x6E, 0x62, 0xC3, 0x22])
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONError("nesting deeper than 64 levels", at: SourceLocation(line: 1, column: 65))) {
            try JSONParser.parse(deep)
        }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("true".utf8)).value == .bool(true))
    }
}
