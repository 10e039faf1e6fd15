import Foundation
import IMProcess
import Testing
import TestSupport

/// imserver speaks sd_notify(3) to the datagram socket `$NOTIFY_SOCKET` names, as systemd's
/// `Type=notify` expects: here a socket the test owns, at a path and at an abstract name.
@Suite(.timeLimit(.minutes(1)))
struct ImserverNotifyTests {
    @Test func readyOnceListeningReloadingAndReadyAtSIGHUPStoppingAtSIGTERM() async throws {
        let directory = TemporaryDirectory()
        let socket = try NotifySocket(name: directory.path + "/notify")
        let server = try await ImserverProcess.start(
            dataDirectory: directory.path + "/data", extra: ["--metrics-listen", "127.0.0.1:0"],
            environment: ["NOTIFY_SOCKET": socket.name])
        let ready = try #require(try await socket.next())
        let mqtt = try #require(server.listening["mqtt"]), metrics = try #require(server.listening["metrics"])
        // Sent once every listener is bound: its status names them, and they accept.
        #expect(ready.hasPrefix("READY=1\n") && ready.contains("mqtt \(mqtt)") && ready.contains("metrics \(metrics)"))
        #expect(LoopbackPort.accepts(server.mqttPort))

        server.process.signal(SIGHUP)
        let reloading = try #require(try await socket.next())
        let lines = reloading.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        #expect(lines.contains { $0.hasPrefix("MONOTONIC_USEC=") && UInt64($0.dropFirst("MONOTONIC_USEC=".count)) != nil })
        #expect(try await socket.next()?.hasPrefix("READY=1\n") == true)

        server.process.signal(SIGTERM)
        let stopping = try #require(try await socket.next())
        #expect(stopping.hasPrefix("STOPPING=1\n") && stopping.contains("SIGTERM"))
        #expect(try await server.waitForExit() == .exited(0))
        #expect(try await socket.next(within: .milliseconds(200)) == nil)
    }

    @Test func anAbstractSocketNameStartsWithAnAt() async throws {
        let directory = TemporaryDirectory()
        let socket = try NotifySocket(name: "@imserver-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let server = try await ImserverProcess.start(dataDirectory: directory.path, environment: ["NOTIFY_SOCKET": socket.name])
        #expect(try await socket.next()?.hasPrefix("READY=1\n") == true)
        #expect(try await server.stop(SIGTERM) == .exited(0))
        #expect(try await socket.next()?.hasPrefix("STOPPING=1\n") == true)
    }

    @Test func aSocketNobodyListensOnIsOnlyAWarning() async throws {
        let directory = TemporaryDirectory()
        let server = try await ImserverProcess.start(
            dataDirectory: directory.path, environment: ["NOTIFY_SOCKET": directory.path + "/nobody-listens"])
        #expect(LoopbackPort.accepts(server.mqttPort))
        #expect(try await server.stop(SIGTERM) == .exited(0))
    }
}
