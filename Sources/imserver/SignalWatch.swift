import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// imserver's signals, caught from the moment the watch is made: SIGHUP runs a reload, one at
/// a time; the first SIGINT or SIGTERM is what `stopSignal()` returns.
///
/// Made before imserver says it listens (and tells systemd READY=1), so that a supervisor that
/// signals at once never meets the default action, which would end it without its graceful stop.
/// Unchecked Sendable: its state is touched only on its serial queue.
final class SignalWatch: @unchecked Sendable {
    private let queue = DispatchQueue(label: "imserver.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var received: String?
    private var waiter: CheckedContinuation<String, Never>?

    init(onHangUp: @escaping @Sendable () async -> Void) {
        queue.sync {
            signal(SIGHUP, SIG_IGN)
            let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
            hangUp.setEventHandler {
                // The queue waits for the reload, so that a second SIGHUP reloads after the first.
                let done = DispatchSemaphore(value: 0)
                Task {
                    await onHangUp()
                    done.signal()
                }
                done.wait()
            }
            watch(hangUp)
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [unowned self] in stop(name) }
                watch(source)
            }
        }
    }

    /// The name of the first SIGINT or SIGTERM, once one has come.
    func stopSignal() async -> String {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                if let received { continuation.resume(returning: received) } else { waiter = continuation }
            }
        }
    }

    private func watch(_ source: any DispatchSourceSignal) {
        sources.append(source)
        source.resume()
    }

    private func stop(_ name: String) {
        guard received == nil else { return }
        received = name
        waiter?.resume(returning: name)
        waiter = nil
    }
}
