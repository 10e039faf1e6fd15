#if canImport(Glibc)
import Glibc
#endif

/// Reads a child's standard output line by line, keeping what it says on standard error.
/// Blocks in poll: use it on a thread of its own.
package struct LineReader {
    let stdout: Int32
    let stderr: Int32
    /// What the child wrote on standard error so far.
    package private(set) var errors = ""
    /// Standard output read past the last line returned: `pending[head...]`. Returned lines
    /// only move `head`, so a chunk of many short lines is not copied once a line.
    private var pending: [UInt8] = []
    private var head = 0
    private var open: [Int32]
    /// Bytes read at a time: 1 leaves what follows a line in the pipe, for another reader.
    private let chunk: Int

    /// Reads the pipes `stdout` and `stderr` (-1: that stream is not read); `byteByByte` reads no
    /// further than the lines returned, for a pipe read by others after this reader.
    package init(stdout: Int32, stderr: Int32, byteByByte: Bool = false) {
        self.stdout = stdout
        self.stderr = stderr
        open = [stdout, stderr].filter { $0 >= 0 }
        chunk = byteByByte ? 1 : 64 * 1024
    }

    /// The next line of standard output, without its newline; nil at end of file or time out.
    package mutating func nextLine(within timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var scanned = head
        while true {
            if let end = pending[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { head = end + 1 }
                return String(decoding: pending[head..<end], as: UTF8.self)
            }
            // Only what arrives from now on is scanned again: a long line comes in many chunks.
            pending.removeFirst(head)
            head = 0
            scanned = pending.count
            guard !open.isEmpty else { return nil }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(left / .milliseconds(1), 60_000)) + 1
            guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) >= 0 || errno == EINTR else { return nil }
            for entry in descriptors where entry.revents != 0 {
                let count = read(entry.fd, &buffer, entry.fd == stdout ? chunk : buffer.count)
                if count <= 0 {
                    if count == 0 || errno != EINTR { open.removeAll { $0 == entry.fd } }
                    continue
                }
                if entry.fd == stderr {
                    errors += String(decoding: buffer[..<count], as: UTF8.self)
                } else {
                    pending.append(contentsOf: buffer[..<count])
                }
            }
        }
    }

    /// Reads standard error to its end or `timeout`, for a child that failed.
    package mutating func drainErrors(within timeout: Duration) {
        while nextLine(within: timeout) != nil {}
    }

    /// Closes both pipes; the child's later writes fail with EPIPE, which imserver ignores.
    package func close() {
        for descriptor in [stdout, stderr] where descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
