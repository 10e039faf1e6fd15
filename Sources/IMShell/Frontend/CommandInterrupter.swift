import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C while a command runs in the REPL cancels that command (a long `wait`, a `connect`
/// retrying); with no command running it does nothing, since the line editor takes Ctrl-C as
/// a key while a line is typed. SIGTERM and SIGHUP run `terminate`, so the shell can end as
/// `quit` does and give the terminal its modes back.
final class CommandInterrupter: Sendable {
    /// The command under way; the signal handler cancels it.
    private final class Current: Sendable {
        private struct State {
            var task: Task<CommandResult, Never>?
            /// SIGTERM or SIGHUP came: a command that starts now (its line was read before the
            /// signal) is cancelled at once, or the shell would end only after it.
            var ending = false
        }

        private let state = Mutex(State())

        func start(_ task: Task<CommandResult, Never>) {
            state.withLock { state in
                state.task = task
                if state.ending { task.cancel() }
            }
        }

        func finish() { state.withLock { $0.task = nil } }

        func cancel() { state.withLock { $0.task?.cancel() } }

        func end() {
            state.withLock { state in
                state.ending = true
                state.task?.cancel()
            }
        }
    }

    private let current = Current()
    private let sources: Mutex<[any DispatchSourceSignal]>

    init(terminate: @escaping @Sendable () -> Void) {
        var made: [any DispatchSourceSignal] = []
        let current = self.current
        let end: @Sendable () -> Void = {
            current.end()
            terminate()
        }
        for (number, handler) in [(SIGINT, { current.cancel() }), (SIGTERM, end), (SIGHUP, end)] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
    }

    /// Runs `work` as the command Ctrl-C cancels; `interrupted` says whether it was.
    func run(_ work: @escaping @Sendable () async -> CommandResult) async -> (result: CommandResult, interrupted: Bool) {
        let task = Task { await work() }
        current.start(task)
        let result = await task.value
        current.finish()
        return (result, task.isCancelled)
    }

    /// Restores the signals' default actions.
    func stop() {
        sources.withLock { list in list.forEach { $0.cancel() } }
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
    }
}
