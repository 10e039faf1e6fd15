import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An interactive line editor on libedit that can print messages above the line being typed.
///
/// Confinement (why it is `Sendable`): every libedit call and every write to the terminal
/// happens on one thread the editor owns, `imsh-line-editor`. The public methods only hand
/// work to that thread through a locked mailbox and wake it with an eventfd, so they may be
/// called from any thread or task at any time. el_wgets blocks; it runs on that thread, never
/// on Swift's cooperative pool. The `Options` closures run on that thread too.
///
/// Keys are libedit's emacs bindings (arrows, Ctrl-A/E, Ctrl-K, up/down browse
/// history), plus: TAB completes (when `Options.completion` is set), Ctrl-C abandons the line
/// for a fresh prompt, Ctrl-D on an empty line ends input. While editing, Ctrl-C, Ctrl-Z and
/// Ctrl-\ are keys, not signals. Input is UTF-8. The window size is read when each line starts.
///
/// Write everything the shell prints through `printAbove(_:)` while the editor is open, so it
/// never lands in the middle of the line being typed.
public final class LineEditor: Sendable {
    private let mailbox: EditorMailbox
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the editor thread on a terminal.
    ///
    /// The descriptors are duplicated, so the caller keeps ownership of `input` and `output`.
    /// Blocks briefly while the editor thread loads the history file and initialises libedit.
    /// - Throws: `LineEditorError` when the descriptors, libedit or the history file fail.
    public init(
        input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO,
        programName: String,
        options: Options = Options()
    ) throws(LineEditorError) {
        let mailbox = try EditorMailbox()
        self.mailbox = mailbox
        let ready = Mutex<Result<Void, LineEditorError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let finished = self.finished
        let thread = Thread {
            mailbox.registerEditorThread()
            let session: EditorSession
            do throws(LineEditorError) {
                session = try EditorSession(input: input, output: output, programName: programName, options: options, mailbox: mailbox)
                ready.withLock { $0 = .success(()) }
            } catch {
                ready.withLock { $0 = .failure(error) }
                started.signal()
                finished.signal()
                return
            }
            started.signal()
            session.run()
            session.end()
            for read in mailbox.finish() { read.resume(returning: nil) }
            finished.signal()
        }
        thread.name = "imsh-line-editor"
        thread.start()
        started.wait()
        if case .failure(let error) = ready.withLock({ $0 }) { throw error }
    }

    deinit {
        close()
    }

    /// Whether `fd` is a terminal; the shell reads a pipe or file as a script instead.
    public static func isTerminal(fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Reads one line (without its newline); nil at end of input (Ctrl-D on an empty line, the
    /// terminal gone) or once the editor is closed.
    ///
    /// Lines that pass `Options.historyFilter` are recorded in history. Calls made while a line
    /// is being read queue behind it. Cancelling the calling task does not end the read: call
    /// `close()`.
    public func readLine() async -> String? {
        await withCheckedContinuation { continuation in
            if !mailbox.enqueueRead(continuation) { continuation.resume(returning: nil) }
        }
    }

    /// Prints `text` on its own line(s) above the prompt, keeping the line being typed and its
    /// cursor; with no line being read it is printed at once. Safe from any thread or task.
    ///
    /// A single trailing newline in `text` is ignored; messages keep the order of the calls.
    /// Ignored once the editor is closed.
    public func printAbove(_ text: String) {
        mailbox.post(text)
    }

    /// Asks the prompt provider again and redraws the prompt if a line is being read.
    public func refreshPrompt() {
        mailbox.markPromptChanged()
    }

    /// Ends the editor: a pending `readLine()` returns nil, queued messages are printed, the
    /// terminal gets its modes back. Waits for the editor thread unless called from it.
    public func close() {
        mailbox.close()
        guard !mailbox.isOnEditorThread else { return }
        finished.wait()
        finished.signal()
    }
}
