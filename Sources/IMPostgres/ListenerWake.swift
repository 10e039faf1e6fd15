import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How `PostgresListener.stop()` wakes the listener's thread from poll(): a flag and a pipe
/// whose read end the thread polls beside the connection's socket.
final class ListenerWake: Sendable {
    private let signaled = Atomic<Bool>(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    /// What ended a wait on a socket.
    enum Outcome { case readable, woken }

    init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    var isSignaled: Bool { signaled.load(ordering: .acquiring) }

    /// Wakes the thread; later waits return at once.
    func signal() {
        guard !signaled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Sleeps `milliseconds` unless signaled; true when signaled.
    func wait(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while !isSignaled {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            _ = poll(&descriptor, 1, Int32(left / .milliseconds(1)) + 1)
        }
        return true
    }

    /// Waits until `socket` is readable (or in error) or the wake is signaled.
    func wait(for socket: Int32) -> Outcome {
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        while !isSignaled {
            let ready = poll(&descriptors, 2, -1)
            if ready > 0, descriptors[0].revents != 0 { return isSignaled ? .woken : .readable }
            if ready < 0, errno != EINTR { return .readable }
        }
        return .woken
    }
}
