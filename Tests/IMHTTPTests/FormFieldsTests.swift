import IMHTTP
import Testing

struct FormFieldsTests {
    @Test func decodesRepeatedFieldsInOrder() throws {
        let form = try FormFields(decoding: "userId=a&minute=10&userId=b&userId=")
        #expect(form.values("userId") == ["a", "b", ""])
        #expect(form["minute"] == "10")
        #expect(form["userid"] == nil)
        #expect(form.fields.map(\.name) == ["userId", "minute", "userId", "userId"])
    }

    @Test func decodesPlusPercentAndOddPieces() throws {
        let form = try FormFields(decoding: "a=hello+world&b=%E4%BD%A0%e5%a5%bd&&c&d==x&%3D=%26&e=a%2Bb")
        #expect(form["a"] == "hello world")
        #expect(form["b"] == "你好")
        #expect(form["c"] == "")
        #expect(form["d"] == "=x")
        #expect(form["="] == "&")
        #expect(form["e"] == "a+b")
        #expect(try FormFields(decoding: "").count == 0)
        #expect(try FormFields(decoding: "raw=日本").values("raw") == ["日本"])
    }

    @Test func refusesBadEscapesAndInvalidUTF8() {
        for text in ["a=%", "a=%4", "a=%zz", "a=%G0", "%=1", "a=1&b=%e4%bd", "a=%ff", "a=%C0%80"] {
            #expect(throws: FormDecodingError.self, "\(text)") { try FormFields(decoding: text) }
        }
        #expect(throws: FormDecodingError.self) { try FormFields(decoding: [UInt8(ascii: "a"), UInt8(ascii: "="), 0xFF]) }
        do {
            _ = try FormFields(decoding: "ok=1&bad=%zz")
        } catch {
            #expect(error.offset == 9)
        }
    }

    @Test func encodingRoundTrips() throws {
        var form = FormFields([("userId", "a b"), ("content", #"{"text":"hé & 100%"}"#)])
        form.append(name: "userId", value: "x*-._~")
        let encoded = form.encoded()
        #expect(encoded == "userId=a+b&content=%7B%22text%22%3A%22h%C3%A9+%26+100%25%22%7D&userId=x*-._%7E")
        #expect(try FormFields(decoding: encoded) == form)
    }
}
