/// PostgreSQL's text form of a `text[]`, both ways: how arrays travel as one parameter and
/// come back in one column (the wire format here is text).
enum PostgresTextArray {
    /// `{"a","b"}`: every element quoted, backslashes and quotes escaped.
    static func literal(_ values: [String]) -> String {
        let items = values.map { value -> String in
            var quoted = "\""
            for character in value {
                if character == "\\" || character == "\"" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }
        return "{" + items.joined(separator: ",") + "}"
    }

    /// The elements of `{a,"b c",...}` (nil or `{}`: none); NULL elements are left out.
    static func parse(_ text: String?) -> [String] {
        guard let text, text.count > 2 else { return [] }
        var elements: [String] = []
        var current = ""
        var quoted = false, inQuotes = false, escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
                quoted = true
            } else if character == ",", !inQuotes {
                if quoted || current != "NULL" { elements.append(current) }
                (current, quoted) = ("", false)
            } else {
                current.append(character)
            }
        }
        if quoted || current != "NULL" { elements.append(current) }
        return elements
    }
}
