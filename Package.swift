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
        // Linux headers outside the Glibc module (epoll, eventfd), for IMTransport.
        .systemLibrary(name: "CTransport", path: "Sources/CTransport"),

        // MQTT 5 codec: pure values, no I/O.
        .target(name: "MQTT"),
        // TCP transport: non-blocking sockets on epoll, framing, SOCKS5.
        .target(name: "IMTransport", dependencies: ["MQTT", "CTransport"]),
        // Command-line option parsing shared by the executables.
        .target(name: "IMCommandLine"),

        .executableTarget(name: "imsh", dependencies: ["IMCommandLine"]),
        .executableTarget(name: "imserver", dependencies: ["IMCommandLine"]),

        .testTarget(name: "MQTTTests", dependencies: ["MQTT"]),
        .testTarget(name: "IMTransportTests", dependencies: ["IMTransport", "MQTT"]),
        .testTarget(name: "IMCommandLineTests", dependencies: ["IMCommandLine"]),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CEdit", "CSQLite", "CCrypto"]),
    ]
)
