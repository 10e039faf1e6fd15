import IMConfig
import Testing

struct ObjectReaderTests {
    func read(_ text: String, allowed: Set<String>, _ body: (ObjectReader) -> Void) -> [String] {
        let diagnostics = ConfigDiagnostics(file: "profiles/dev.json")
        if let root = diagnostics.parse(Array(text.utf8)), let object = diagnostics.object(root, field: "", allowed: allowed) {
            body(object)
        }
        return diagnostics.all.map(\.description)
    }

    @Test func readsTypedFields() {
        var seen: (String?, Bool?, Int?, Double?) = (nil, nil, nil, nil)
        let problems = read(#"{"appKey": "k1", "on": true, "timeout": 30, "jitter": 0.25}"#,
                            allowed: ["appKey", "on", "timeout", "jitter"]) { object in
            seen = (object.string("appKey"), object.bool("on"), object.int("timeout", in: 0...600), object.double("jitter", in: 0...1))
        }
        #expect(problems.isEmpty)
        #expect(seen.0 == "k1" && seen.1 == true && seen.2 == 30 && seen.3 == 0.25)
    }

    @Test func reportsEveryProblemWithFileLineColumnFieldAndReason() {
        let text = """
        {
          "appKey": 5,
          "timeot": 3,
          "timeout": 9999,
          "nested": {"x": ""},
          "appKey": "again"
        }
        """
        let problems = read(text, allowed: ["appKey", "timeout", "nested", "secret"]) { object in
            _ = object.string("appKey")
            _ = object.int("timeout", in: 0...600)
            object.require("secret")
            if let nested = object.object("nested", allowed: ["x"]) { _ = nested.string("x") }
        }
        #expect(problems == [
            "profiles/dev.json:3:3: error: timeot: unknown field (did you mean 'timeout'?)",
            "profiles/dev.json:6:3: error: appKey: appears more than once",
            "profiles/dev.json:2:13: error: appKey: expected a string, found a number",
            "profiles/dev.json:4:14: error: timeout: 9999 is out of range 0...600",
            "profiles/dev.json:1:1: error: secret: missing (required)",
            "profiles/dev.json:5:19: error: nested.x: must not be empty",
        ])
    }

    @Test func topLevelThatIsNotAnObject() {
        #expect(read("[1]", allowed: []) { _ in } == ["profiles/dev.json:1:1: error: expected an object, found an array"])
    }

    @Test func syntaxErrorNamesThePosition() {
        #expect(read("{\n\"a\": }", allowed: ["a"]) { _ in } == [
            "profiles/dev.json:2:6: error: not valid JSON: expected a value, found '}'",
        ])
    }
}
