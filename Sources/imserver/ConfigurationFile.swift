import IMCommandLine
import IMConfig
import IMServer

#if canImport(Glibc)
import Glibc
#endif

/// Reading the server configuration named by `--config`, with every problem reported at once.
enum ConfigurationFile {
    /// Exit status when the configuration file is unreadable or invalid.
    static let exitStatus: Int32 = 3

    /// The configuration in `path`, or the development default when `path` is nil.
    ///
    /// Prints every diagnostic (`FILE:LINE:COL: error: FIELD: REASON`) on stderr, warnings
    /// included, and exits 3 when any of them is an error.
    static func loadOrExit(_ path: String?) -> ServerConfiguration {
        guard let path else { return ServerConfiguration() }
        let (configuration, diagnostics) = load(path)
        for diagnostic in diagnostics {
            CommandLineTool.writeError("\(diagnostic)\n")
        }
        guard let configuration else { exit(exitStatus) }
        return configuration
    }

    /// The configuration in `path` (nil when any diagnostic is an error) and every diagnostic,
    /// each naming the file, the field and the reason.
    static func load(_ path: String) -> (ServerConfiguration?, [ConfigDiagnostic]) {
        let diagnostics = ConfigDiagnostics(file: path)
        var configuration: ServerConfiguration?
        switch readFile(path) {
        case .success(let bytes):
            configuration = ServerConfiguration.parse(bytes, diagnostics: diagnostics)
        case .failure(let reason):
            diagnostics.error("", at: nil, "cannot read the file: \(reason.message)")
        }
        return (configuration, diagnostics.all)
    }

    struct ReadError: Error {
        var message: String
    }

    /// The whole file, or what `open`/`read` said.
    static func readFile(_ path: String) -> Result<[UInt8], ReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadError(message: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(message: String(cString: strerror(errno))))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
        }
    }
}
