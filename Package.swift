// swift-tools-version:6.0
// imsh: an engine, shell and server for driving many instant-messaging accounts over MQTT 5.
// No package dependencies: C libraries come from Debian as system library targets.
import PackageDescription

let package = Package(
    name: "imsh",
    products: [
        .executable(name: "imsh", targets: ["imsh"]),
        .executable(name: "imserver", targets: ["imserver"]),
        .executable(name: "imchaos", targets: ["imchaos"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "IMTransport", targets: ["IMTransport"]),
    ],
    targets: [
        // System libraries (Debian packages).
        .systemLibrary(name: "CEdit", path: "Sources/CEdit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        // libssl for TLS (same Debian package as libcrypto).
        .systemLibrary(name: "CSSL", path: "Sources/CSSL", providers: [.apt(["libssl-dev"])]),
        // libpq, the PostgreSQL client library, for IMPostgres (imserver's shared store).
        .systemLibrary(name: "CPQ", path: "Sources/CPQ", providers: [.apt(["libpq-dev"])]),
        // Kernel rtnetlink headers (linux-libc-dev, present wherever a C compiler is).
        .systemLibrary(name: "CNetlink", path: "Sources/CNetlink"),
        // Linux headers outside the Glibc module (epoll, eventfd), for IMTransport.
        .systemLibrary(name: "CTransport", path: "Sources/CTransport"),
        // glibc's posix_spawn extensions (closefrom, chdir) and pipe2, for IMProcess.
        .systemLibrary(name: "CProcess", path: "Sources/CProcess"),
        // The commit a release build was made from (scripts/install defines it), for --version.
        .systemLibrary(name: "CBuildInfo", path: "Sources/CBuildInfo"),

        // MQTT 5 codec: pure values, no I/O.
        .target(name: "MQTT"),
        // TCP transport: non-blocking sockets on epoll, framing, SOCKS5, TLS, WebSocket.
        .target(name: "IMTransport", dependencies: ["MQTT", "CTransport", "CSSL", "IMHTTP", "IMProtocol"]),
        // Child processes through posix_spawn (Foundation's Process can crash with many descriptors open).
        .target(name: "IMProcess", dependencies: ["CProcess"]),
        // Command-line option parsing shared by the executables.
        .target(name: "IMCommandLine", dependencies: ["CBuildInfo", "IMHTTP"]),
        // SQLite layer: one confined connection, migrations, corruption recovery.
        .target(name: "IMStore", dependencies: ["CSQLite"]),
        // PostgreSQL client on libpq: blocking connections, a bounded thread pool, a LISTEN thread.
        .target(name: "IMPostgres", dependencies: ["CPQ", "IMTransport"]),
        // JSON: one parser with line/column positions, and deterministic values for payloads.
        .target(name: "IMJSON"),
        // The wire contract as code: names, topics, tokens, payloads, API signatures.
        .target(name: "IMProtocol", dependencies: ["CCrypto", "IMJSON", "IMHTTP"]),
        // HTTP/1.1 message codec: pure values, no I/O.
        .target(name: "IMHTTP"),

        // The one HTTP/1.1 client (plain or TLS, in the event loop) and the signed server-API client on it.
        .target(name: "IMHTTPClient", dependencies: ["IMHTTP", "IMTransport", "IMProtocol", "IMJSON"]),
        // JSON configuration files read with line/column diagnostics (server config, profiles).
        .target(name: "IMConfig", dependencies: ["IMJSON"]),
        // imsh's profiles: app-key environments and their accounts, read from JSON files.
        .target(name: "IMProfiles", dependencies: ["IMConfig", "IMJSON", "IMProtocol", "IMHTTP", "IMTransport"]),
        // The IM server: device policy, connect limits, MQTT side and HTTP API.
        .target(name: "IMServer", dependencies: ["IMConfig", "IMJSON", "IMStore", "IMPostgres", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMProcess"]),
        // The client session engine: reconnection policy, sessions, local database.
        .target(name: "IMEngine", dependencies: [
            "CNetlink", "IMJSON", "IMStore", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMHTTPClient", "IMProcess",
        ]),
        // A TCP proxy that injects network faults (delay, throttle, black hole, reset, cut packets).
        .target(name: "IMChaos", dependencies: ["IMTransport", "MQTT"]),
        // The REPL's line editor on libedit: prompt, completion, history, messages above the prompt.
        .target(name: "LineEditor", dependencies: ["CEdit"]),

        // The shell: profiles, sessions, the REPL and the script runner behind imsh.
        .target(name: "IMShell", dependencies: [
            "IMEngine", "IMServer", "IMProfiles", "LineEditor", "IMProtocol", "IMHTTP", "IMHTTPClient", "IMTransport", "IMConfig", "IMJSON",
            "IMCommandLine", "IMTimeline", "IMProcess",
        ]),

        // Connection logs as pictures: lanes of status spans (terminal, SVG, HTML) and the bench report's charts.
        .target(name: "IMTimeline", dependencies: ["IMEngine", "IMStore", "IMJSON", "IMTransport"]),

        // imsh bench: many accounts at once, measured (connect, messages, reconnect).
        .target(name: "IMBench", dependencies: [
            "IMEngine", "IMServer", "IMProfiles", "IMTransport", "IMProcess", "IMCommandLine", "IMProtocol", "IMHTTP", "IMHTTPClient",
            "IMTimeline",
        ]),

        .executableTarget(name: "imsh", dependencies: ["IMShell", "IMBench", "IMCommandLine"]),
        .executableTarget(name: "imserver", dependencies: [
            "IMCommandLine", "IMServer", "IMConfig", "IMJSON", "IMStore", "IMProtocol", "IMTransport", "IMHTTP",
        ]),
        .executableTarget(name: "imchaos", dependencies: ["IMChaos", "IMCommandLine", "IMJSON", "IMTransport", "IMHTTP"]),
        // Encode/decode throughput of the MQTT codec.
        .executableTarget(name: "mqtt-bench", dependencies: ["MQTT"]),

        .testTarget(name: "MQTTTests", dependencies: ["MQTT"]),
        .testTarget(name: "IMTransportTests", dependencies: ["TestSupport", "IMTransport", "MQTT"]),
        .testTarget(name: "IMCommandLineTests", dependencies: ["IMCommandLine", "IMProcess"]),
        .testTarget(name: "IMProcessTests", dependencies: ["IMProcess", "TestSupport"]),
        .testTarget(name: "IMStoreTests", dependencies: ["IMStore", "TestSupport"]),
        .testTarget(name: "IMJSONTests", dependencies: ["IMJSON"]),
        .testTarget(name: "IMPostgresTests", dependencies: ["IMPostgres", "TestSupport"]),
        .testTarget(name: "IMProtocolTests", dependencies: ["IMProtocol"]),
        .testTarget(name: "IMHTTPTests", dependencies: ["IMHTTP"]),
        .testTarget(name: "IMConfigTests", dependencies: ["IMConfig"]),
        .testTarget(name: "IMProfilesTests", dependencies: ["IMProfiles", "IMConfig", "IMProtocol", "IMHTTP", "IMTransport"]),
        .testTarget(name: "IMServerTests", dependencies: ["TestSupport", "IMProcess", "IMJSON", "IMServer", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMHTTPClient"]),
        .testTarget(name: "IMEngineTests", dependencies: ["TestSupport", "IMChaos", "IMProcess", "IMEngine", "IMServer", "IMProtocol", "MQTT", "IMTransport", "IMStore", "IMHTTP"]),
        .testTarget(name: "IMBenchTests", dependencies: ["IMBench", "IMProcess", "IMJSON", "IMTransport", "TestSupport", "imsh", "imserver"]),
        .testTarget(name: "IMChaosTests", dependencies: ["TestSupport", "IMChaos", "IMProcess", "IMTransport", "MQTT"]),
        // 200 engine sessions through the fault proxy to an imserver process killed every 20 s (IMSH_SOAK_SECONDS).
        .testTarget(name: "SoakTests", dependencies: ["TestSupport", "IMChaos", "IMEngine", "IMProcess", "IMProtocol", "IMTransport", "MQTT"]),
        .testTarget(name: "IMTimelineTests", dependencies: ["IMTimeline", "IMEngine", "IMJSON", "TestSupport"]),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "TestSupport"]),
        .testTarget(name: "IMShellTests", dependencies: [
            "IMProcess", "TestSupport", "IMShell", "imsh", "IMProfiles", "IMEngine", "IMServer", "IMProtocol", "IMTransport", "IMConfig",
            "IMHTTPClient", "imserver", "imchaos",
        ]),
        // What several test targets share: a deadline for async tests, a pseudo-terminal and a model of its screen,
        // and a look into the SQLite files a killed process left.
        .target(name: "TestSupport", dependencies: ["CSQLite", "IMStore", "IMProcess", "IMJSON", "IMPostgres", "IMProtocol"], path: "Tests/TestSupport"),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CEdit", "CSQLite", "CCrypto", "IMStore"]),
    ]
)
