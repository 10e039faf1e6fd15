#if canImport(Glibc)
import Glibc
#endif

/// Reads a child's first line of standard output, keeping what it says on standard error.
/// Blocks in poll: use it on a thread of its own.
struct LineReader {
    let stdout: Int32
    let stderr: Int32
    /// What the child wrote on standard error so far.
    private(set) var errors = ""

    init(stdout: Int32, stderr: Int32) {
        self.stdout = stdout
        self.stderr = stderr
    }

    /// The first line of standard output, without its newline; nil at end of file or time out.
    mutating func firstLine(within timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        var line: [UInt8] = []
        var open = [stdout, stderr].filter { $0 >= 0 }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(left / .milliseconds(1), 60_000)) + 1
            guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) >= 0 || errno == EINTR else { return nil }
            for entry in descriptors where entry.revents != 0 {
                let count = entry.fd == stdout ? read(entry.fd, &buffer, 1) : read(entry.fd, &buffer, buffer.count)
                if count <= 0 {
                    if count == 0 || errno != EINTR { open.removeAll { $0 == entry.fd } }
                    continue
                }
                if entry.fd == stderr {
                    errors += String(decoding: buffer[..<count], as: UTF8.self)
                } else if buffer[0] == UInt8(ascii: "\n") {
                    return String(decoding: line, as: UTF8.self)
                } else {
                    line.append(buffer[0])
                }
            }
        }
        return nil
    }

    /// Closes both pipes; the child's later writes fail with EPIPE, which imserver ignores.
    func close() {
        for descriptor in [stdout, stderr] where descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
