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
        .target(name: "IMTransport", dependencies: ["MQTT", "CTransport", "CSSL", "IMHTTP", "IMEncoding", "IMThreads"]),
        // Threads of their own for blocking work (named, off the cooperative pool): SystemThread, BlockingCall.
        .target(name: "IMThreads", dependencies: ["CTransport"]),
        // Child processes through posix_spawn (Foundation's Process can crash with many descriptors open).
        .target(name: "IMProcess", dependencies: ["CProcess"]),
        // The one way to start the imserver executable and wait for its listening line (benches, chaos nodes, tests).
        .target(name: "IMLaunch", dependencies: ["IMProcess", "IMJSON", "IMThreads"]),
        // Command-line option parsing shared by the executables.
        .target(name: "IMCommandLine", dependencies: ["CBuildInfo", "IMHTTP"]),
        // SQLite layer: one confined connection, migrations, corruption recovery.
        .target(name: "IMStore", dependencies: ["CSQLite"]),
        // PostgreSQL client on libpq: blocking connections, a bounded thread pool, a LISTEN thread.
        .target(name: "IMPostgres", dependencies: ["CPQ", "IMThreads"]),
        // JSON: one parser with line/column positions, and deterministic values for payloads.
        .target(name: "IMJSON"),
        // The wire contract as code: names, topics, tokens, payloads, API signatures.
        .target(name: "IMProtocol", dependencies: ["IMJSON", "IMHTTP", "IMEncoding"]),
        // HTTP/1.1 message codec: pure values, no I/O.
        .target(name: "IMHTTP"),
        // Encodings (Base64, Base64URL, hex) and digests (SHA-1, SHA-256, HMAC), random bytes, on libcrypto: a leaf.
        .target(name: "IMEncoding", dependencies: ["CCrypto"]),

        // The one HTTP/1.1 client (plain or TLS, in the event loop) and the signed server-API client on it.
        .target(name: "IMHTTPClient", dependencies: ["IMHTTP", "IMTransport", "IMProtocol", "IMJSON", "IMEncoding"]),
        // JSON configuration files read with line/column diagnostics (server config, profiles).
        .target(name: "IMConfig", dependencies: ["IMJSON"]),
        // imsh's profiles: app-key environments and their accounts, read from JSON files.
        .target(name: "IMProfiles", dependencies: [
            "IMConfig", "IMJSON", "IMProtocol", "IMHTTP", "IMTransport", "IMEncoding", "IMProcess",
        ]),
        // The IM server: device policy, connect limits, MQTT side and HTTP API.
        .target(name: "IMServer", dependencies: [
            "IMConfig", "IMJSON", "IMStore", "IMPostgres", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMEncoding",
            "IMThreads", "IMProcess",
        ]),
        // The client session engine: reconnection policy, sessions, local database.
        .target(name: "IMEngine", dependencies: [
            "CNetlink", "IMJSON", "IMStore", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMHTTPClient", "IMProcess",
            "IMThreads",
        ]),
        // A TCP proxy that injects network faults (delay, throttle, black hole, reset, cut packets).
        .target(name: "IMChaos", dependencies: ["IMTransport", "MQTT", "IMThreads"]),
        // The REPL's line editor on libedit: prompt, completion, history, messages above the prompt.
        .target(name: "LineEditor", dependencies: ["CEdit"]),

        // The shell: profiles, sessions, the REPL and the script runner behind imsh.
        .target(name: "IMShell", dependencies: [
            "IMEngine", "IMServer", "IMProfiles", "LineEditor", "IMProtocol", "IMHTTP", "IMHTTPClient", "IMTransport",
            "IMConfig", "IMJSON", "IMCommandLine", "IMTimeline", "IMProcess", "IMEncoding", "IMStore", "IMThreads",
            "IMChaos",
        ]),

        // Connection logs as pictures: lanes of status spans (terminal, SVG, HTML) and the bench report's charts.
        .target(name: "IMTimeline", dependencies: ["IMEngine", "IMJSON", "IMTransport", "IMThreads"]),

        // imsh bench: many accounts at once, measured (connect, messages, reconnect, shell).
        .target(name: "IMBench", dependencies: [
            "IMEngine", "IMServer", "IMProfiles", "IMTransport", "IMProcess", "IMCommandLine", "IMProtocol", "IMHTTP",
            "IMHTTPClient", "IMTimeline", "IMJSON", "IMThreads", "IMLaunch",
        ]),
        // imsh bench login|server: a server measured with bare MQTT clients (no database, no session engine).
        // It builds on IMBench (options, reports, progress, the bench's server); imsh adds it to IMBench's benches.
        .target(name: "IMServerBench", dependencies: [
            "IMBench", "IMCommandLine", "IMHTTP", "IMJSON", "IMProcess", "IMProfiles", "IMProtocol", "IMTransport", "MQTT",
        ]),
        // imsh bench chaos: imserver nodes on one PostgreSQL under faults, and a ledger of what they promised.
        // It builds on IMBench (options, reports, progress); imsh adds it to IMBench's benches.
        .target(name: "IMChaosBench", dependencies: [
            "IMBench", "IMChaos", "IMCommandLine", "IMEngine", "IMHTTP", "IMHTTPClient", "IMJSON", "IMProcess", "IMProtocol",
            "IMServer", "IMThreads", "IMTransport", "IMLaunch",
        ]),

        .executableTarget(name: "imsh", dependencies: ["IMShell", "IMBench", "IMServerBench", "IMChaosBench", "IMCommandLine", "IMProcess"]),
        .executableTarget(name: "imserver", dependencies: [
            "IMCommandLine", "IMServer", "IMConfig", "IMJSON", "IMProtocol", "IMTransport", "IMHTTP", "IMStore",
        ]),
        .executableTarget(name: "imchaos", dependencies: ["IMChaos", "IMCommandLine", "IMJSON", "IMTransport", "IMHTTP"]),
        // Encode/decode throughput of the MQTT codec.
        .executableTarget(name: "mqtt-bench", dependencies: ["MQTT"]),

        .testTarget(name: "MQTTTests", dependencies: ["MQTT"]),
        .testTarget(name: "IMTransportTests", dependencies: ["TestSupport", "IMTransport", "MQTT", "IMHTTP", "IMThreads"]),
        .testTarget(name: "IMCommandLineTests", dependencies: ["IMCommandLine", "IMProcess"]),
        .testTarget(name: "IMProcessTests", dependencies: ["IMProcess", "IMThreads", "TestSupport"]),
        .testTarget(name: "IMStoreTests", dependencies: ["IMStore", "TestSupport", "CSQLite", "IMProcess"]),
        .testTarget(name: "IMJSONTests", dependencies: ["IMJSON"]),
        .testTarget(name: "IMPostgresTests", dependencies: ["IMPostgres", "TestSupport"]),
        .testTarget(name: "IMProtocolTests", dependencies: ["IMProtocol", "IMEncoding"]),
        .testTarget(name: "IMEncodingTests", dependencies: ["IMEncoding"]),
        .testTarget(name: "IMHTTPTests", dependencies: ["IMHTTP"]),
        .testTarget(name: "IMConfigTests", dependencies: ["IMConfig"]),
        .testTarget(name: "IMProfilesTests", dependencies: ["IMProfiles", "IMProtocol", "IMHTTP", "IMTransport"]),
        .testTarget(name: "IMServerTests", dependencies: [
            "TestSupport", "IMProcess", "IMJSON", "IMServer", "IMProtocol", "MQTT", "IMTransport", "IMHTTP", "IMConfig",
            "IMEncoding", "IMPostgres", "IMStore", "IMHTTPClient",
        ]),
        .testTarget(name: "IMEngineTests", dependencies: [
            "TestSupport", "IMChaos", "IMProcess", "IMEngine", "IMServer", "IMProtocol", "MQTT", "IMTransport", "IMStore",
            "IMHTTP", "IMEncoding",
        ]),
        .testTarget(name: "IMBenchTests", dependencies: [
            "IMBench", "IMProcess", "IMJSON", "TestSupport", "imsh", "imserver", "IMEngine", "MQTT",
        ]),
        .testTarget(name: "IMChaosTests", dependencies: [
            "TestSupport", "IMChaos", "IMProcess", "IMTransport", "MQTT", "IMThreads",
        ]),
        // 200 engine sessions through the fault proxy to an imserver process killed every 20 s (IMSH_SOAK_SECONDS).
        .testTarget(name: "SoakTests", dependencies: [
            "TestSupport", "IMChaos", "IMEngine", "IMProcess", "IMProtocol", "IMTransport", "MQTT", "IMThreads", "IMLaunch",
        ]),
        .testTarget(name: "IMTimelineTests", dependencies: ["IMTimeline", "IMEngine"]),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "TestSupport"]),
        .testTarget(name: "IMShellTests", dependencies: [
            "IMProcess", "TestSupport", "IMShell", "imsh", "IMProfiles", "IMEngine", "IMServer", "IMProtocol",
            "IMTransport", "IMConfig", "IMHTTPClient", "imserver", "imchaos", "IMHTTP", "IMJSON", "IMTimeline",
            "IMThreads",
        ]),
        // What several test targets share: a deadline for async tests, a pseudo-terminal and a model of its screen,
        // and a look into the SQLite files a killed process left.
        .target(name: "TestSupport", dependencies: [
            "CSQLite", "IMStore", "IMProcess", "IMJSON", "IMPostgres", "IMProtocol", "IMLaunch",
        ], path: "Tests/TestSupport"),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CEdit", "CSQLite", "CCrypto", "IMStore"]),
    ]
)
