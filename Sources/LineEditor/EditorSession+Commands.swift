import CEdit
#if canImport(Glibc)
import Glibc
#endif

/// The editor functions added to libedit (EL_ADDFN) and bound to keys.
extension EditorSession {
    /// `imsh-redraw`, bound to the redraw character, prints the mailbox's messages above the line
    /// in two steps, because only libedit knows where on screen its cursor is:
    /// 1. empty the line and let libedit refresh, which leaves the cursor just after the prompt;
    /// 2. from there clear to the end of the screen, print the messages, put the line back as it
    ///    was (text and cursor) and have libedit draw prompt and line afresh below them.
    func redrawCommand() -> UInt8 {
        switch redraw {
        case .idle:
            // Reached through a meta key (ESC then Ctrl-^), not through the mailbox.
            return UInt8(CC_NORM)
        case .requested:
            let line = currentLine()
            _ = el_cursor(editLine, Int32(line.text.count - line.cursor))
            if !line.text.isEmpty { el_deletestr(editLine, Int32(line.text.count)) }
            redraw = .cleared(text: line.text, cursor: line.cursor)
            return UInt8(CC_REFRESH)
        case .cleared(let text, let cursor):
            redraw = .idle
            let width = columns
            let promptRows = width > 0 ? promptWidth / width : 0
            var output = "\r"
            if promptRows > 0 { output += "\u{1B}[\(promptRows)A" }
            output += "\u{1B}[J"
            output += mailbox.takeMessages().map(TerminalOutput.lines).joined()
            writeDirectly(output)
            updatePrompt()
            if !text.isEmpty {
                _ = el_winsertstr(editLine, text + [0])
                _ = el_cursor(editLine, Int32(cursor - text.count))
            }
            _ = imsh_el_refresh(editLine)
            return UInt8(CC_NORM)
        }
    }

    /// `imsh-interrupt`, bound to Ctrl-C: marks the line with `^C`, ends it, and lets
    /// `readLine` drop it and start a fresh prompt on the next line.
    func interruptCommand() -> UInt8 {
        let line = currentLine()
        _ = el_cursor(editLine, Int32(line.text.count - line.cursor))
        _ = el_winsertstr(editLine, WideText.terminated("^C"))
        interrupted = true
        // Ctrl-J runs ed-newline, which moves below the line before it ends it.
        el_wpush(editLine, WideText.terminated("\n"))
        return UInt8(CC_REFRESH)
    }

    /// `imsh-complete`, bound to TAB: see `CompletionPlan`.
    func completeCommand() -> UInt8 {
        guard let provider = options.completion else { return UInt8(CC_REFRESH_BEEP) }
        let line = currentLine()
        let before = WideText.string(line.text[..<line.cursor])
        let plan = CompletionPlan(lineBeforeCursor: before, candidates: provider(before))
        switch plan.action {
        case .none:
            return UInt8(CC_REFRESH_BEEP)
        case .replaceWord(let replacement):
            let wordLength = plan.word.unicodeScalars.count
            if wordLength > 0 { el_deletestr(editLine, Int32(wordLength)) }
            _ = el_winsertstr(editLine, WideText.terminated(replacement))
            return UInt8(CC_REFRESH)
        case .list(let candidates):
            let width = columns > 0 ? columns : 80
            let rows = CompletionPlan.columns(candidates, width: width) { WideText.displayWidth($0.unicodeScalars) }
            mailbox.post(rows.joined(separator: "\n"))
            return UInt8(CC_NORM)
        }
    }

    private func currentLine() -> (text: [wchar_t], cursor: Int) {
        let info = el_wline(editLine).pointee
        let text = Array(UnsafeBufferPointer(start: info.buffer, count: info.lastchar - info.buffer))
        return (text, info.cursor - info.buffer)
    }
}
