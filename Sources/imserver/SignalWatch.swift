import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// imserver's signals, caught from the moment the watch is made: SIGHUP runs a reload, one at
/// a time; the first SIGINT or SIGTERM is what `stopSignal()` returns.
///
/// Made before imserver says it listens (and tells systemd READY=1), so that a supervisor that
/// signals at once never meets the default action, which would end it without its graceful stop.
/// The handlers are installed before `init` returns and only write the signal's number to a
/// pipe, which the watch's queue reads. Dispatch's own signal sources were used before: they
/// start watching only once the queue they register on has run, and a SIGTERM sent meanwhile
/// (to a server that had just said it listens, on a busy machine) met the SIG_IGN they need,
/// and was lost.
/// Unchecked Sendable: its state is touched only on its serial queue.
final class SignalWatch: @unchecked Sendable {
    private let queue = DispatchQueue(label: "imserver.signals")
    private let reader: any DispatchSourceRead
    private var received: String?
    private var waiter: CheckedContinuation<String, Never>?
    /// The pipe's write end, for the handlers (which can reach only globals); one watch a process.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    init(onHangUp: @escaping @Sendable () async -> Void) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: \(String(cString: strerror(errno)))")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        Self.writeEnd = ends[1]
        for number in [SIGHUP, SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalWatch.writeEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let readEnd = ends[0]
        reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        reader.setEventHandler { [unowned self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd, &bytes, bytes.count)
            for number in bytes.prefix(max(count, 0)) {
                switch Int32(number) {
                case SIGHUP:
                    // The queue waits for the reload, so that a second SIGHUP reloads after the first.
                    let done = DispatchSemaphore(value: 0)
                    Task {
                        await onHangUp()
                        done.signal()
                    }
                    done.wait()
                case SIGINT: stop("SIGINT")
                default: stop("SIGTERM")
                }
            }
        }
        reader.resume()
    }

    /// The name of the first SIGINT or SIGTERM, once one has come.
    func stopSignal() async -> String {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if let received { continuation.resume(returning: received) } else { waiter = continuation }
            }
        }
    }

    private func stop(_ name: String) {
        guard received == nil else { return }
        received = name
        waiter?.resume(returning: name)
        waiter = nil
    }
}
