#if canImport(Glibc)
import Glibc
#endif

/// Direct writes to the terminal, for text libedit does not draw.
enum TerminalOutput {
    /// Writes all of `text`, waiting out EINTR and a non-blocking descriptor; gives up on other
    /// errors (the terminal is gone and nobody would see the text).
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes = bytes.dropFirst(count)
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 100)
            } else {
                return
            }
        }
    }

    /// `text` as one or more whole lines: one trailing newline is the caller's and is kept once.
    static func lines(_ text: String) -> String {
        text.hasSuffix("\n") ? text : text + "\n"
    }
}
