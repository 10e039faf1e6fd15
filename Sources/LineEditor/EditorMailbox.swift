import CEdit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What other threads hand to the editor thread, and the eventfd that wakes it.
///
/// The editor thread sleeps in poll(2) on `wakeDescriptor` (together with the terminal while a
/// line is being edited); every change here writes to the eventfd, whose counter keeps a wake-up
/// that arrives before the thread polls.
final class EditorMailbox: Sendable {
    /// The next thing the editor thread should do when no line is being edited.
    enum Work {
        case print([String])
        case read(CheckedContinuation<String?, Never>)
        case stop
    }

    private struct State {
        var messages: [String] = []
        /// Lines dropped since the terminal last took what waited.
        var dropped = 0
        var promptChanged = false
        var reads: [CheckedContinuation<String?, Never>] = []
        var closed = false
        var editorThread: pthread_t?
    }

    private let state = Mutex(State())
    let wakeDescriptor: Int32

    init() throws(LineEditorError) {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw .system(call: "eventfd", code: errno) }
        wakeDescriptor = descriptor
    }

    deinit {
        Glibc.close(wakeDescriptor)
    }

    // MARK: Any thread

    /// The most lines that wait for the terminal: while it takes nothing (stopped with Ctrl-S,
    /// a stalled link) the posters never wait, so past this the oldest tenth goes at once and
    /// is counted, and one line says how many when printing resumes.
    static let waitingLimit = 100_000

    /// Queues text for printing above the prompt; false once the editor is closed.
    @discardableResult
    func post(_ text: String) -> Bool {
        changeUnlessClosed { state in
            if state.messages.count >= Self.waitingLimit {
                let oldest = Self.waitingLimit / 10
                state.messages.removeFirst(oldest)
                state.dropped += oldest
            }
            state.messages.append(text)
        }
    }

    /// Everything waiting, after a line for what was dropped; empties the queue.
    private static func takeWaiting(_ state: inout State) -> [String] {
        var lines = state.messages
        if state.dropped > 0 {
            lines.insert("\(state.dropped) lines not shown: the terminal did not take them in time", at: 0)
            state.dropped = 0
        }
        state.messages.removeAll()
        return lines
    }

    func markPromptChanged() {
        state.withLock { $0.promptChanged = true }
        wake()
    }

    /// Queues a read; false once the editor is closed (the caller then answers nil itself).
    func enqueueRead(_ continuation: CheckedContinuation<String?, Never>) -> Bool {
        changeUnlessClosed { $0.reads.append(continuation) }
    }

    private func changeUnlessClosed(_ change: (inout State) -> Void) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            change(&state)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    func close() {
        state.withLock { $0.closed = true }
        wake()
    }

    var isOnEditorThread: Bool {
        state.withLock { state in state.editorThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    // MARK: Editor thread

    func registerEditorThread() {
        state.withLock { $0.editorThread = pthread_self() }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether the line on screen has to be taken down and drawn again.
    var wantsRedraw: Bool { state.withLock { !$0.messages.isEmpty || $0.promptChanged } }

    /// The messages to print now; clears the prompt-changed mark too, as the caller redraws.
    func takeMessages() -> [String] {
        state.withLock { state in
            state.promptChanged = false
            return Self.takeWaiting(&state)
        }
    }

    /// Waits for work between lines: messages come first, so they print before a new prompt.
    func nextWork() -> Work {
        while true {
            let work: Work? = state.withLock { state in
                state.promptChanged = false
                if !state.messages.isEmpty { return .print(Self.takeWaiting(&state)) }
                if state.closed { return .stop }
                if !state.reads.isEmpty { return .read(state.reads.removeFirst()) }
                return nil
            }
            if let work { return work }
            var entry = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, -1)
            drainWake()
        }
    }

    func drainWake() {
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, 8)
    }

    /// Marks the editor gone and returns the reads still waiting, to be answered with nil.
    func finish() -> [CheckedContinuation<String?, Never>] {
        state.withLock { state in
            state.closed = true
            defer { state.reads.removeAll() }
            return state.reads
        }
    }
}
