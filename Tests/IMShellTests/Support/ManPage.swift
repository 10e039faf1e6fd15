import Foundation

/// A page of the repository's `man/`, read as mdoc lines, for tests that hold it to the binaries.
struct ManPage {
    /// An option as a page writes it: `Fl -timeout Ar s` is `--timeout`, taking a value.
    struct Option: Hashable {
        var name: String
        var takesValue: Bool
    }

    let lines: [String]

    init(lines: [String]) { self.lines = lines }

    /// `man/NAME` (`imsh.1`); no lines when it cannot be read.
    init(_ name: String) {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        let text = (try? String(contentsOf: url.appendingPathComponent("man/\(name)"), encoding: .utf8)) ?? ""
        lines = text.split(separator: "\n").map(String.init)
    }

    /// The lines of section `.Sh title`, up to the next `.Sh`.
    func section(_ title: String) -> ManPage {
        let start = lines.firstIndex(of: ".Sh \(title)").map { $0 + 1 } ?? lines.endIndex
        let end = lines[start...].firstIndex { $0.hasPrefix(".Sh ") } ?? lines.endIndex
        return ManPage(lines: Array(lines[start..<end]))
    }

    /// The lines before section `.Sh title`.
    func before(_ title: String) -> ManPage {
        ManPage(lines: Array(lines.prefix { $0 != ".Sh \(title)" }))
    }

    /// The `.It MACRO ...` lines (`Ic` for commands, `Cm`, `Fl` for options).
    func items(_ macro: String) -> [String] {
        lines.filter { $0.hasPrefix(".It \(macro) ") }
    }

    /// The first word after `.It MACRO` of each item: the command a line documents.
    func itemNames(_ macro: String) -> [String] {
        items(macro).compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
    }

    /// Every `.It Fl` option of the page (or section).
    var listedOptions: [Option] { items("Fl").flatMap(Self.options) }

    /// The options an mdoc line names. A value follows when `Ar` or `Cm` comes before the next
    /// option; `Fl p , Fl -profile Ar name` gives both names the value.
    static func options(in line: String) -> [Option] {
        // A macro that opens a line is written `.Fl`; within a line, `Fl`.
        let words = line.split(separator: " ").map { $0.hasPrefix(".") ? String($0.dropFirst()) : String($0) }
        var found: [Option] = []
        var index = 0
        while index < words.count {
            defer { index += 1 }
            guard words[index] == "Fl", index + 1 < words.count else { continue }
            let name = "-" + words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: ",|"))
            let rest = words[(index + 2)...]
            let next = rest.firstIndex { ["Fl", "Oc", "Op", "Oo", "|"].contains($0) } ?? words.endIndex
            var takesValue = rest[..<next].contains { $0 == "Ar" || $0 == "Cm" }
            // `Fl p , Fl -profile Ar profile`: a short name takes what its long name takes.
            if !takesValue, rest.first == ",", next < words.count, words[next] == "Fl" {
                takesValue = options(in: words[next...].joined(separator: " ")).first?.takesValue ?? false
            }
            found.append(Option(name: name, takesValue: takesValue))
        }
        return found
    }

    /// The option names in a `--help` text: its lines that start with spaces and a dash.
    static func helpOptions(_ help: String) -> Set<String> {
        var names: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ").prefix(3) where word.hasPrefix("-") {
                names.insert(word.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
            }
        }
        return names
    }
}
