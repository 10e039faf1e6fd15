import Foundation
import IMProcess
import IMEngine
import Testing

struct NetworkSnapshotTests {
    let none = NetworkSnapshot(addresses: [])
    let one = NetworkSnapshot(addresses: ["eth0 192.0.2.1"])
    let other = NetworkSnapshot(addresses: ["wlan0 198.51.100.4"])

    @Test func eventsBetweenSnapshots() {
        #expect(none.event(since: one) == .down)
        #expect(one.event(since: none) == .up)
        #expect(other.event(since: one) == .changed)
        #expect(one.event(since: one) == nil)
        #expect(none.event(since: none) == nil)
    }

    @Test func currentSnapshotNeverListsLoopback() {
        #expect(!NetworkSnapshot.current().addresses.contains { $0.hasPrefix("lo ") })
    }
}

/// The real monitor, watching a network namespace of its own so the host's network is never touched.
@Suite(.enabled(if: NetworkNamespace.isAvailable, "needs root and iproute2 to make a network namespace"))
struct LinuxNetworkMonitorTests {
    @Test func reportsUpChangedAndDownInANamespace() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let monitor = try LinuxNetworkMonitor(namespacePath: namespace.path)
        defer { monitor.stop() }
        #expect(!monitor.snapshot.isUsable)
        let recorder = EventRecorder(monitor.events())

        // A veth pair: an end is running (has carrier) only while both ends are up.
        try namespace.ip("link", "add", "v0", "type", "veth", "peer", "name", "v1")
        try namespace.ip("addr", "add", "198.18.0.1/24", "dev", "v0")
        try namespace.ip("link", "set", "v1", "up")
        try namespace.ip("link", "set", "v0", "up")
        #expect(await recorder.events(count: 1) == [.up])
        #expect(monitor.snapshot.addresses.contains("v0 198.18.0.1"))

        try namespace.ip("addr", "add", "198.18.1.1/24", "dev", "v0")
        #expect(await recorder.events(count: 2) == [.up, .changed])

        try namespace.ip("link", "set", "v1", "down")
        #expect(await recorder.events(count: 3) == [.up, .changed, .down])
        #expect(!monitor.snapshot.isUsable)
    }

    @Test func stopEndsTheStream() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let monitor = try LinuxNetworkMonitor(namespacePath: namespace.path)
        let stream = monitor.events()
        monitor.stop()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test func missingNamespaceIsAReadableError() {
        #expect(throws: NetworkMonitorError.self) {
            try LinuxNetworkMonitor(namespacePath: "/run/netns/imsh-no-such-namespace")
        }
    }
}

/// Collects a stream's events so a test can wait, bounded in time, for a number of them.
actor EventRecorder {
    private var seen: [NetworkEvent] = []

    init(_ stream: AsyncStream<NetworkEvent>) {
        Task { [weak self] in
            for await event in stream { await self?.append(event) }
        }
    }

    private func append(_ event: NetworkEvent) { seen.append(event) }

    /// The events so far once there are `count` of them, or whatever came within 5 s.
    func events(count: Int) async -> [NetworkEvent] {
        for _ in 0..<250 where seen.count < count {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return seen
    }
}

/// A throwaway network namespace made with iproute2.
struct NetworkNamespace {
    let name = "imsh-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var path: String { "/run/netns/\(name)" }

    static var isAvailable: Bool {
        getuid() == 0 && (FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") || FileManager.default.isExecutableFile(atPath: "/sbin/ip"))
    }

    init() throws {
        try Self.run(["netns", "add", name])
    }

    func ip(_ arguments: String...) throws {
        try Self.run(["-n", name] + arguments)
    }

    func remove() {
        try? Self.run(["netns", "del", name])
    }

    private static func run(_ arguments: [String]) throws {
        let ip = FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip"
        guard try ChildProcess.run(ip, arguments, timeout: .seconds(30)).termination == .exited(0) else {
            throw NetworkMonitorError("ip \(arguments.joined(separator: " "))", errno: EINVAL)
        }
    }
}
