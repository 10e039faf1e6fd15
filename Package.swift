// swift-tools-version:6.0
// imsh: an engine, shell and server for driving many instant-messaging accounts over MQTT 5.
// No package dependencies: C libraries come from Debian as system library targets.
import PackageDescription

let package = Package(
    name: "imsh",
    products: [
        .executable(name: "imsh", targets: ["imsh"]),
        .executable(name: "imserver", targets: ["imserver"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "IMTransport", targets: ["IMTransport"]),
    ],
    targets: [
        // System libraries (Debian packages).
        .systemLibrary(name: "CEdit", path: "Sources/CEdit", providers: [.apt(["libedit-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        // Kernel rtnetlink headers (linux-libc-dev, present wherever a C compiler is).
        .systemLibrary(name: "CNetlink", path: "Sources/CNetlink"),

        // MQTT 5 codec: pure values, no I/O.
        .target(name: "MQTT"),
        // TCP transport: non-blocking sockets on epoll, framing, SOCKS5.
        .target(name: "IMTransport", dependencies: ["MQTT"]),
        // Command-line option parsing shared by the executables.
        .target(name: "IMCommandLine"),
        // JSON configuration files read with line/column diagnostics (server config, profiles).
        .target(name: "IMConfig"),
        // The IM server: device policy, connect limits, MQTT side and HTTP API.
        .target(name: "IMServer", dependencies: ["IMConfig"]),
        // The client session engine: reconnection policy, sessions, local database.
        .target(name: "IMEngine", dependencies: ["CNetlink"]),
        // The REPL's line editor on libedit: prompt, completion, history, messages above the prompt.
        .target(name: "LineEditor", dependencies: ["CEdit"]),

        .executableTarget(name: "imsh", dependencies: ["IMCommandLine"]),
        .executableTarget(name: "imserver", dependencies: ["IMCommandLine"]),

        .testTarget(name: "MQTTTests", dependencies: ["MQTT"]),
        .testTarget(name: "IMTransportTests", dependencies: ["IMTransport", "MQTT"]),
        .testTarget(name: "IMCommandLineTests", dependencies: ["IMCommandLine"]),
        .testTarget(name: "IMConfigTests", dependencies: ["IMConfig"]),
        .testTarget(name: "IMServerTests", dependencies: ["IMServer"]),
        .testTarget(name: "IMEngineTests", dependencies: ["IMEngine"]),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor"]),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CEdit", "CSQLite", "CCrypto"]),
    ]
)
