import CProcess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ends a `ChildProcess.run` before its deadline, from any thread: the run then ends its child
/// as at the deadline (SIGTERM to the group, SIGKILL after the grace) and sweeps what it left.
///
/// A run blocks a thread of its own, which a Swift task's cancellation cannot reach: a task
/// that gives up on a run (a connect attempt given up) cancels it through this. The run polls
/// an eventfd beside the child's outputs, so a cancellation wakes it at once.
public final class RunCancellation: Sendable {
    /// Readable once cancelled; -1 when no eventfd could be made (the run then ends only at its deadline).
    let descriptor: Int32
    private let cancelled = Atomic<Bool>(false)

    public init() {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Asks the run to end its child now; later calls do nothing.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing), descriptor >= 0 else { return }
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// The runs under way, each with its cancellation, for `ChildProcess.cancelRuns()`.
    static let live = Mutex<[ObjectIdentifier: RunCancellation]>([:])
}
