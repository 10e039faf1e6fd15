import CNetlink
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches the kernel's rtnetlink link, address and route notifications and reports when the
/// usable network goes down, comes up or changes.
///
/// Netlink messages only wake the monitor; the truth is a fresh `NetworkSnapshot` taken after a
/// short quiet period, so bursts of messages (an interface coming up with several addresses)
/// make one event. The monitor runs on its own thread, off Swift's cooperative pool, because it
/// blocks in poll(2).
public final class LinuxNetworkMonitor: Sendable {
    private struct State {
        var snapshot = NetworkSnapshot(addresses: [])
        var subscribers: [UInt64: AsyncStream<NetworkEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let wakeDescriptor: Int32
    /// How long the monitor waits after a notification for more before it looks.
    public let quietPeriod: Duration

    /// Starts watching.
    /// - Parameter namespacePath: a network namespace to watch instead of the process's own,
    ///   such as `/run/netns/test` (the monitor's thread joins it; needs CAP_SYS_ADMIN).
    public init(namespacePath: String? = nil, quietPeriod: Duration = .milliseconds(50)) throws(NetworkMonitorError) {
        self.quietPeriod = quietPeriod
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wake >= 0 else { throw NetworkMonitorError("eventfd", errno: errno) }
        wakeDescriptor = wake
        let ready = Mutex<Result<Void, NetworkMonitorError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let socket: Int32
            do throws(NetworkMonitorError) {
                socket = try Self.openNetlink(namespacePath: namespacePath)
                state.withLock { $0.snapshot = NetworkSnapshot.current() }
                ready.withLock { $0 = .success(()) }
            } catch {
                ready.withLock { $0 = .failure(error) }
                started.signal()
                return
            }
            started.signal()
            run(socket: socket)
            close(socket)
        }
        thread.name = "imsh-network-monitor"
        thread.start()
        started.wait()
        if case .failure(let error) = ready.withLock({ $0 }) {
            // deinit closes the eventfd; there is no thread to wake.
            state.withLock { $0.stopped = true }
            throw error
        }
    }

    deinit {
        stop()
        // The thread holds the monitor while it runs, so it has exited by now.
        close(wakeDescriptor)
    }

    /// The usable addresses as of the last look.
    public var snapshot: NetworkSnapshot { state.withLock { $0.snapshot } }

    /// A stream of the events from now on; it ends when the monitor stops.
    public func events() -> AsyncStream<NetworkEvent> {
        let (stream, continuation) = AsyncStream<NetworkEvent>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id: UInt64? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Stops the monitor's thread and ends every stream.
    public func stop() {
        let subscribers = state.withLock { state -> [AsyncStream<NetworkEvent>.Continuation]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        // Only the first call may write: the thread closes the eventfd once woken, and a later
        // write would land in whatever file reused the descriptor number.
        guard let subscribers else { return }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
        subscribers.forEach { $0.finish() }
    }

    private static func openNetlink(namespacePath: String?) throws(NetworkMonitorError) -> Int32 {
        if let namespacePath {
            let namespace = open(namespacePath, O_RDONLY | O_CLOEXEC)
            guard namespace >= 0 else { throw NetworkMonitorError("open \(namespacePath)", errno: errno) }
            defer { close(namespace) }
            guard setns(namespace, CLONE_NEWNET) == 0 else { throw NetworkMonitorError("setns \(namespacePath)", errno: errno) }
        }
        let socket = Glibc.socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), NETLINK_ROUTE)
        guard socket >= 0 else { throw NetworkMonitorError("socket(AF_NETLINK)", errno: errno) }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = UInt32(RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(socket)
            throw NetworkMonitorError("bind(AF_NETLINK)", errno: code)
        }
        return socket
    }

    private func run(socket: Int32) {
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let quietMilliseconds = Int32(quietPeriod / .milliseconds(1))
        while true {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            // Drain this burst and whatever follows within the quiet period, then look once.
            repeat {
                while recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
            } while poll(&descriptors, 1, quietMilliseconds) > 0
            publish(NetworkSnapshot.current())
        }
    }

    private func publish(_ snapshot: NetworkSnapshot) {
        let (event, subscribers) = state.withLock { state in
            let event = snapshot.event(since: state.snapshot)
            state.snapshot = snapshot
            return (event, Array(state.subscribers.values))
        }
        guard let event else { return }
        subscribers.forEach { $0.yield(event) }
    }
}
