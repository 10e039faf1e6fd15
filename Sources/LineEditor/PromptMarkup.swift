/// A prompt with its escape sequences fenced off for libedit's EL_PROMPT_ESC.
///
/// libedit draws the text between two delimiters as a "literal" glued to the visible character
/// that follows it and counts only that character's width, so colour codes do not move the
/// cursor arithmetic. Two rules of libedit shape the result: each hidden run must be followed by
/// a visible character (so consecutive sequences are merged into one run, and a run at the end
/// is moved before the last visible character), and the delimiter may not appear otherwise.
struct PromptMarkup: Equatable {
    /// The delimiter handed to EL_PROMPT_ESC.
    static let delimiter: Unicode.Scalar = "\u{1}"

    /// The prompt as libedit gets it.
    let marked: String
    /// The characters that take room on screen.
    let visible: String

    init(_ prompt: String) {
        var pieces: [(hidden: String.UnicodeScalarView, shown: Unicode.Scalar)] = []
        var hidden = String.UnicodeScalarView()
        var scalars = prompt.unicodeScalars[...]
        while let scalar = scalars.first {
            if scalar == Self.delimiter {
                scalars.removeFirst()
            } else if scalar == "\u{1B}" {
                hidden.append(contentsOf: Self.takeEscapeSequence(from: &scalars))
            } else if scalar.value < 0x20 || scalar.value == 0x7F {
                hidden.append(scalars.removeFirst())
            } else {
                pieces.append((hidden, scalars.removeFirst()))
                hidden = String.UnicodeScalarView()
            }
        }
        if !hidden.isEmpty, !pieces.isEmpty {
            pieces[pieces.count - 1].hidden.append(contentsOf: hidden)
        }
        var marked = String.UnicodeScalarView()
        var visible = String.UnicodeScalarView()
        for piece in pieces {
            if !piece.hidden.isEmpty {
                marked.append(Self.delimiter)
                marked.append(contentsOf: piece.hidden)
                marked.append(Self.delimiter)
            }
            marked.append(piece.shown)
            visible.append(piece.shown)
        }
        self.marked = String(marked)
        self.visible = String(visible)
    }

    /// Removes one escape sequence: CSI (`ESC [` … final byte), OSC (`ESC ]` … BEL or `ESC \`),
    /// or a two-character `ESC x`.
    private static func takeEscapeSequence(from scalars: inout Substring.UnicodeScalarView) -> [Unicode.Scalar] {
        var taken = [scalars.removeFirst()]
        guard let introducer = scalars.first else { return taken }
        taken.append(scalars.removeFirst())
        switch introducer {
        case "[":
            while let next = scalars.first {
                taken.append(scalars.removeFirst())
                if (0x40...0x7E).contains(next.value) { break }
            }
        case "]":
            while let next = scalars.first {
                taken.append(scalars.removeFirst())
                if next == "\u{7}" { break }
                if next == "\u{1B}", scalars.first == "\\" {
                    taken.append(scalars.removeFirst())
                    break
                }
            }
        default:
            break
        }
        return taken
    }
}
