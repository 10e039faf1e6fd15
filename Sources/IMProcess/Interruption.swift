import Dispatch
import Foundation
import Synchronization

/// Ends a command that runs other processes cleanly on SIGINT, SIGTERM or SIGHUP (`imsh bench`,
/// `imsh test`): the processes it started (a spawned imserver, worker processes, scenarios)
/// are asked to stop, and its temporary directories are removed, before it exits with 128 +
/// the signal, as the signal itself would have.
///
/// Without it an interrupted bench left its imserver running (in imsh's process group a
/// terminal's Ctrl-C reaches it, a `kill` of imsh alone does not) and its temporary databases
/// on disk; `imsh test` left its scenarios running.
public enum Interruption {
    private static let directories = Mutex<Set<String>>([])
    private static let sources = Mutex<[any DispatchSourceSignal]>([])
    private static let ending = Atomic<Bool>(false)

    /// Watches the signals from now on; `name` is the command, for the message.
    public static func install(name: String) {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for (number, signalName) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { end(name, number, signalName) }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Removes `path` if the bench is interrupted.
    public static func removeIfInterrupted(_ path: String) {
        _ = directories.withLock { $0.insert(path) }
    }

    /// `path` is gone, or kept: nothing to do for it any more.
    public static func forget(_ path: String) {
        _ = directories.withLock { $0.remove(path) }
    }

    /// Called where the command would end on its own: once a signal is being handled, waits
    /// for that to end the process, so that what the stopped processes made fail (a token
    /// refused, a connection closed) is neither reported nor taken for the exit status.
    public static func yieldToSignal() async {
        guard ending.load(ordering: .acquiring) else { return }
        while true { try? await Task.sleep(for: .seconds(60)) }
    }

    /// Moves `path` aside, then removes it: sessions may still run and write (a status change
    /// after the server stopped), and a file they made while the tree was being removed would
    /// leave it behind. Under its new name no path they use reaches it.
    private static func remove(_ path: String) {
        let aside = path + ".removing-\(getpid())"
        let target = rename(path, aside) == 0 ? aside : path
        try? FileManager.default.removeItem(atPath: target)
    }

    private static func end(_ name: String, _ number: Int32, _ signalName: String) {
        guard !ending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ChildProcess.stopAll()
        for path in directories.withLock({ Array($0) }) { remove(path) }
        FileHandle.standardError.write(Data("\n\(name): interrupted by \(signalName)\n".utf8))
        _exit(128 + number)
    }
}
