/// One command of a line or script, split into words.
public struct TokenizedCommand: Equatable, Sendable {
    public var words: [String]
    /// The 1-based line the command starts on.
    public var line: Int

    public init(words: [String], line: Int) {
        self.words = words
        self.line = line
    }
}

/// Splits shell input into commands and words, as sh(1) does for simple commands.
///
/// Words are separated by spaces and tabs; commands by `;` and newlines. `"…"` keeps spaces
/// and `;` (inside it `\"` and `\\` are escapes), `'…'` keeps everything as written, a
/// backslash outside quotes takes the next character as it is (before a newline it continues
/// the line), and `#` at the start of a word begins a comment that runs to the end of the line.
public enum CommandTokenizer {
    /// The commands of `text`; empty commands (blank lines, `;;`) are left out.
    public static func commands(in text: String, firstLine: Int = 1) throws(CommandSyntaxError) -> [TokenizedCommand] {
        var scanner = Scanner(line: firstLine)
        for scalar in text.unicodeScalars {
            try scanner.feed(scalar)
        }
        return try scanner.finish()
    }

    /// Whether `line` ends in a backslash that continues it on the next line: outside quotes
    /// and not itself escaped (`\\` at the end is a backslash, not a continuation).
    public static func continuesOnNextLine(_ line: String) -> Bool {
        var scanner = Scanner(line: 1)
        for scalar in line.unicodeScalars {
            guard (try? scanner.feed(scalar)) != nil else { return false }
        }
        return scanner.mode == .escaped
    }

    /// The words of one command; `;` and newlines inside `text` are errors unless quoted.
    public static func words(in text: String) throws(CommandSyntaxError) -> [String] {
        let commands = try commands(in: text)
        guard commands.count <= 1 else { throw CommandSyntaxError("expected one command, found \(commands.count)") }
        return commands.first?.words ?? []
    }

    private struct Scanner {
        enum Mode { case plain, doubleQuoted, singleQuoted, escaped, escapedInDouble, comment }

        var mode = Mode.plain
        var word = String.UnicodeScalarView()
        /// A word has begun, even an empty one (`""`).
        var inWord = false
        var words: [String] = []
        var commands: [TokenizedCommand] = []
        var line: Int
        var column = 0
        /// The line the current command's first word began on.
        var commandLine: Int
        var quoteStart = (line: 0, column: 0)

        init(line: Int) {
            self.line = line
            commandLine = line
        }

        mutating func feed(_ scalar: Unicode.Scalar) throws(CommandSyntaxError) {
            column += 1
            defer {
                if scalar == "\n" {
                    line += 1
                    column = 0
                }
            }
            switch mode {
            case .comment:
                if scalar == "\n" {
                    mode = .plain
                    endCommand()
                }
            case .escaped:
                mode = .plain
                if scalar != "\n" { append(scalar) }
            case .escapedInDouble:
                mode = .doubleQuoted
                if scalar != "\"" && scalar != "\\" { word.append("\\") }
                word.append(scalar)
            case .singleQuoted:
                if scalar == "'" { mode = .plain } else { word.append(scalar) }
            case .doubleQuoted:
                switch scalar {
                case "\"": mode = .plain
                case "\\": mode = .escapedInDouble
                default: word.append(scalar)
                }
            case .plain:
                plain(scalar)
            }
        }

        private mutating func plain(_ scalar: Unicode.Scalar) {
            switch scalar {
            case " ", "\t", "\r":
                endWord()
            case "\n", ";":
                endCommand()
            case "#" where !inWord:
                mode = .comment
            case "\\":
                mode = .escaped
            case "\"", "'":
                beginWord()
                quoteStart = (line, column)
                mode = scalar == "\"" ? .doubleQuoted : .singleQuoted
            default:
                append(scalar)
            }
        }

        private mutating func append(_ scalar: Unicode.Scalar) {
            beginWord()
            word.append(scalar)
        }

        private mutating func beginWord() {
            if !inWord, words.isEmpty { commandLine = line }
            inWord = true
        }

        private mutating func endWord() {
            guard inWord else { return }
            words.append(String(word))
            word = String.UnicodeScalarView()
            inWord = false
        }

        private mutating func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(TokenizedCommand(words: words, line: commandLine)) }
            words = []
        }

        mutating func finish() throws(CommandSyntaxError) -> [TokenizedCommand] {
            switch mode {
            case .doubleQuoted, .escapedInDouble, .singleQuoted:
                let quote = mode == .singleQuoted ? "'" : "\""
                throw CommandSyntaxError(
                    "the \(quote) opened at column \(quoteStart.column) is never closed; add a closing \(quote)",
                    line: quoteStart.line)
            case .escaped, .plain, .comment:
                endCommand()
            }
            return commands
        }
    }
}
