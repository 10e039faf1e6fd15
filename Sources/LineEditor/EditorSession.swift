import CEdit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libedit and everything it touches, confined to the editor thread: that thread creates the
/// session, runs it and ends it, and libedit calls back into it only from el_wgets there.
final class EditorSession {
    /// The character the input function hands libedit to run `imsh-redraw`. A user who types
    /// it (U+009E, a C1 control) never reaches libedit: the input function drops it.
    static let redrawCharacter: Unicode.Scalar = "\u{9E}"

    /// Where a redraw for messages stands; see `EditorSession+Commands`.
    enum RedrawStep {
        case idle
        /// The redraw character went out: the next `imsh-redraw` empties the line on screen.
        case requested
        /// The line is off the screen (libedit's cursor sits after the prompt): print, restore.
        case cleared(text: [wchar_t], cursor: Int)
    }

    /// Keeps the redraw character back after a key that reads the next key itself.
    enum WakeHold {
        case none
        case until(ContinuousClock.Instant)
        case nextKey
    }

    let mailbox: EditorMailbox
    let options: LineEditor.Options
    let editLine: OpaquePointer
    let history: OpaquePointer
    let historyFile: HistoryFile?
    let inputDescriptor: Int32
    let outputDescriptor: Int32
    let isTerminal: Bool
    private let inputStream: UnsafeMutablePointer<FILE>
    private let outputStream: UnsafeMutablePointer<FILE>
    private let locale: locale_t?
    private var promptBuffer: UnsafeMutablePointer<CChar>?
    /// Columns the prompt on screen takes.
    var promptWidth = 0
    var decoder = UTF8InputDecoder()
    var redraw = RedrawStep.idle
    var hold = WakeHold.none
    var interrupted = false
    var inputEnded = false

    init(input: Int32, output: Int32, programName: String, options: LineEditor.Options, mailbox: EditorMailbox) throws(LineEditorError) {
        self.mailbox = mailbox
        self.options = options
        if let path = options.historyFile {
            let filter = options.historyFilter
            historyFile = try HistoryFile(path: path, limit: options.historyLimit) { filter?($0) ?? true }
        } else {
            historyFile = nil
        }
        locale = Self.useUTF8Locale()
        var undo: [() -> Void] = [{ [locale] in Self.restoreLocale(locale) }]
        func fail(_ error: LineEditorError) -> LineEditorError {
            undo.reversed().forEach { $0() }
            return error
        }
        guard let inputStream = Self.stream(duplicating: input, mode: "r") else { throw fail(.system(call: "dup/fdopen input", code: errno)) }
        undo.append { fclose(inputStream) }
        guard let outputStream = Self.stream(duplicating: output, mode: "w") else { throw fail(.system(call: "dup/fdopen output", code: errno)) }
        undo.append { fclose(outputStream) }
        let terminalType = options.terminalType
        Self.libedit.lock()
        defer { Self.libedit.unlock() }
        guard let editLine = el_init(programName, inputStream, outputStream, outputStream) else { throw fail(.libedit("el_init failed")) }
        undo.append { el_end(editLine) }
        if let terminalType, imsh_el_set_terminal(editLine, terminalType) != 0 {
            throw fail(.libedit("unknown terminal type \(terminalType)"))
        }
        guard let history = history_init() else { throw fail(.libedit("history_init failed")) }
        self.inputStream = inputStream
        self.outputStream = outputStream
        self.editLine = editLine
        self.history = history
        inputDescriptor = fileno(inputStream)
        outputDescriptor = fileno(outputStream)
        isTerminal = isatty(inputDescriptor) == 1
        configure()
    }

    /// Ends libedit (which restores the terminal's modes) and lets go of every resource.
    func end() {
        Self.libedit.lock()
        el_end(editLine)
        Self.libedit.unlock()
        history_end(history)
        fclose(inputStream)
        fclose(outputStream)
        free(promptBuffer)
        promptBuffer = nil
        Self.restoreLocale(locale)
    }

    // MARK: Lines

    /// Serves the mailbox until the editor is closed.
    func run() {
        while true {
            switch mailbox.nextWork() {
            case .print(let messages):
                fflush(outputStream)
                TerminalOutput.write(messages.map(TerminalOutput.lines).joined(), to: outputDescriptor)
            case .read(let continuation):
                continuation.resume(returning: readLine())
            case .stop:
                return
            }
        }
    }

    /// Edits one line; nil at end of input, on Ctrl-D on an empty line, or when closed.
    private func readLine() -> String? {
        while !inputEnded {
            updatePrompt()
            redraw = .idle
            interrupted = false
            var count: Int32 = 0
            Self.libedit.lock()
            // el_wgets shows the prompt before it leaves cooked mode; keys typed in between
            // would be echoed by the terminal. Going raw first closes that gap.
            if isTerminal { _ = imsh_el_prepare_terminal(editLine, 1) }
            let wide = el_wgets(editLine, &count)
            Self.libedit.unlock()
            guard let wide, count > 0 else { break }
            if interrupted { continue }
            var characters = UnsafeBufferPointer(start: wide, count: Int(count))[...]
            if characters.last == 0x0A { characters = characters.dropLast() }
            let line = WideText.string(characters.filter { $0 != wchar_t(bitPattern: Self.redrawCharacter.value) })
            record(line)
            return line
        }
        fflush(outputStream)
        TerminalOutput.write("\n", to: outputDescriptor)
        return nil
    }

    private func record(_ line: String) {
        guard line.contains(where: { !$0.isWhitespace }), options.historyFilter?(line) ?? true else { return }
        var event = HistEvent()
        _ = imsh_history_enter(history, &event, line)
        historyFile?.append(line)
    }

    // MARK: Screen

    func updatePrompt() {
        let markup = PromptMarkup(options.prompt())
        free(promptBuffer)
        promptBuffer = strdup(markup.marked)
        promptWidth = WideText.displayWidth(markup.visible.unicodeScalars)
    }

    var prompt: UnsafeMutablePointer<CChar>? { promptBuffer }

    var columns: Int { Int(imsh_el_get_columns(editLine)) }

    /// Writes text libedit does not know about, after what libedit has buffered.
    func writeDirectly(_ text: String) {
        fflush(outputStream)
        TerminalOutput.write(text, to: outputDescriptor)
    }

    // MARK: Setup

    /// Held by an editor thread whenever it is inside libedit, except while it waits for a key
    /// in `readCharacter`. libedit reads the terminal database and formats cursor moves with
    /// tgetent(3) and tgoto(3), which work in static buffers; two editors in one process (as in
    /// tests) would otherwise garble each other's output.
    static let libedit = NSLock()

    private func configure() {
        var event = HistEvent()
        _ = imsh_history_set_size(history, &event, Int32(options.historyLimit))
        _ = imsh_history_set_unique(history, &event, 1)
        for entry in historyFile?.entries ?? [] {
            _ = imsh_history_enter(history, &event, entry)
        }
        _ = imsh_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = imsh_el_set_editor(editLine, "emacs")
        _ = imsh_el_set_signal(editLine, 0)
        _ = imsh_el_set_hist(editLine, history)
        // Ctrl-C must reach the editor as a key rather than kill the shell.
        _ = imsh_el_setty_edit(editLine, "-isig")
        installCallbacks()
    }

    private static func stream(duplicating descriptor: Int32, mode: String) -> UnsafeMutablePointer<FILE>? {
        let copy = dup(descriptor)
        guard copy >= 0 else { return nil }
        guard let stream = fdopen(copy, mode) else {
            let code = errno
            close(copy)
            errno = code
            return nil
        }
        return stream
    }

    /// Makes this thread's LC_CTYPE UTF-8 (libedit converts and measures characters with it)
    /// without touching the process's locale; nil when it already is, or none is installed.
    private static func useUTF8Locale() -> locale_t? {
        if String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8" { return nil }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
            if let locale = imsh_new_ctype_locale(name) {
                uselocale(locale)
                return locale
            }
        }
        return nil
    }

    private static func restoreLocale(_ locale: locale_t?) {
        guard let locale else { return }
        imsh_use_global_locale()
        freelocale(locale)
    }
}
