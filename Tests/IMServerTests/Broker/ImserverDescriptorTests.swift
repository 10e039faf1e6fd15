import Foundation
import IMProcess
import IMTransport
import MQTT
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// imserver with too few descriptors for its clients: it says so and serves again once some close.
@Suite(.timeLimit(.minutes(1)))
struct ImserverDescriptorTests {
    @Test func runningOutOfDescriptorsIsReportedOnceAndServingResumes() async throws {
        let directory = TemporaryDirectory()
        // dash's ulimit sets the hard limit too, so imserver cannot raise it back.
        let script = "ulimit -n 48 && exec \"$0\" --listen 127.0.0.1:0 --api 127.0.0.1:0 --data \"$1\" --json"
        let process = try ChildProcess.spawn("/bin/sh", ["-c", script, ImserverProcess.binary, directory.path])
        defer { process.signal(SIGKILL); _ = process.wait() }
        let output = FileHandle(fileDescriptor: process.stdout!, closeOnDealloc: true)
        let errors = LineCollector(fileDescriptor: process.stderr!)
        let first = try await offPoolLine(output)
        let event = try #require(try JSONSerialization.jsonObject(with: Data((first ?? "").utf8)) as? [String: String])
        let port = try #require(event["mqtt"]?.split(separator: ":").last.flatMap { UInt16($0) })

        // Far more connections than descriptors: the kernel queues them, imserver cannot take them all.
        var sockets: [Int32] = []
        for _ in 0..<80 { sockets.append(try Self.connect(port: port)) }
        let warning = "imserver: warning: cannot accept MQTT connections (Too many open files)"
        #expect(await errors.waitFor(within: .seconds(10)) { $0.contains { $0.hasPrefix(warning) } }, "\(errors.lines)")
        // The last descriptors stay the process's own (libdispatch ends a process that cannot
        // open /proc/<tid>/stat): no connection holds one at or above the ceiling, 48 - 12.
        let held = Self.socketDescriptors(of: process.pid)
        #expect(held.count >= 20 && held.allSatisfy { $0 < ProcessLimits.connectionCeiling(limit: 48) }, "\(held)")

        for socket in sockets { close(socket) }
        // Room again: a client logs in and is answered.
        let connack = try await withTimeout(.seconds(20)) {
            while true {
                let client = try await MQTTTestClient.open(port: port)
                if let connack = try await client.login(appKey: ImserverProcess.appKey, token: ImserverProcess.token("alice"), device: "d-1") {
                    client.close()
                    return connack
                }
                client.close()
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(connack.reasonCode == .success)
        #expect(errors.lines.filter { $0.hasPrefix(warning) }.count == 1, "one warning for one spell: \(errors.lines)")
    }

    /// The numbers of the descriptors of process `pid` that are sockets.
    static func socketDescriptors(of pid: pid_t) -> [Int] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)
            return target?.hasPrefix("socket:") == true ? Int(name) : nil
        }.sorted()
    }

    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw TestFailure("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        return fd
    }

    private func offPoolLine(_ handle: FileHandle) async throws -> String? {
        try await offPool {
            var bytes: [UInt8] = []
            while let byte = handle.readData(ofLength: 1).first, byte != 0x0A { bytes.append(byte) }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// The lines a child writes to a pipe, read on a thread of their own.
final class LineCollector: Sendable {
    private let collected = Mutex<[String]>([])

    init(fileDescriptor: Int32) {
        Thread.detachNewThread { [self] in
            let handle = FileHandle(fileDescriptor: fileDescriptor, closeOnDealloc: true)
            var line: [UInt8] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                for byte in data {
                    if byte == 0x0A {
                        let text = String(decoding: line, as: UTF8.self)
                        self.collected.withLock { $0.append(text) }
                        line = []
                    } else {
                        line.append(byte)
                    }
                }
            }
        }
    }

    var lines: [String] { collected.withLock { $0 } }

    /// Whether `condition` holds of the lines so far, within `timeout`.
    func waitFor(within timeout: Duration, _ condition: ([String]) -> Bool) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if condition(lines) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(lines)
    }
}
