import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C while a command runs in the REPL cancels that command (a long `wait`, a `connect`
/// retrying); with no command running it does nothing, since the line editor takes Ctrl-C as
/// a key while a line is typed.
final class CommandInterrupter: Sendable {
    /// The command under way; the signal handler cancels it.
    private final class Current: Sendable {
        let task = Mutex<Task<CommandResult, Never>?>(nil)

        func cancel() { task.withLock { $0?.cancel() } }
    }

    private let current = Current()
    private let source: Mutex<(any DispatchSourceSignal)?>

    init() {
        signal(SIGINT, SIG_IGN)
        let made = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let current = self.current
        made.setEventHandler { current.cancel() }
        made.resume()
        source = Mutex(made)
    }

    /// Runs `work` as the command Ctrl-C cancels.
    func run(_ work: @escaping @Sendable () async -> CommandResult) async -> CommandResult {
        let task = Task { await work() }
        current.task.withLock { $0 = task }
        let result = await task.value
        current.task.withLock { $0 = nil }
        return result
    }

    /// Restores the default action of SIGINT.
    func stop() {
        source.withLock { $0?.cancel() }
        signal(SIGINT, SIG_DFL)
    }
}
