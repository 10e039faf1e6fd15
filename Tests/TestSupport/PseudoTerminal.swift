import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

public struct PseudoTerminalError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}

/// A pseudo-terminal made for one test: the editor gets the slave side, the test types on the
/// master side, and a reader thread collects everything the editor writes, so the editor never
/// blocks on a full terminal buffer.
public final class PseudoTerminal: Sendable {
    public let master: Int32
    public let slave: Int32
    public let columns: Int
    public let rows: Int
    private let output = Mutex<[UInt8]>([])
    private let stopping = Mutex(false)
    private let reading = Mutex(false)
    private let readerDone = DispatchSemaphore(value: 0)

    /// _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int) from <asm-generic/ioctls.h>, which
    /// Swift cannot import: direction << 30 | size << 16 | type << 8 | number.
    private static let setLock = UInt(1 << 30 | 4 << 16 | 0x54 << 8 | 0x31)
    private static let getNumber = UInt(2 << 30 | 4 << 16 | 0x54 << 8 | 0x30)

    public init(columns: Int = 80, rows: Int = 24) throws {
        self.columns = columns
        self.rows = rows
        // posix_openpt(3) and friends need _XOPEN_SOURCE, which Swift's Glibc module lacks; on
        // Linux they are /dev/ptmx plus two ioctls.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw PseudoTerminalError(call: "open /dev/ptmx", code: errno) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard withUnsafeMutablePointer(to: &unlock, { ioctl(master, Self.setLock, $0) }) == 0,
              withUnsafeMutablePointer(to: &number, { ioctl(master, Self.getNumber, $0) }) == 0
        else {
            let code = errno
            Glibc.close(master)
            throw PseudoTerminalError(call: "ioctl TIOCSPTLCK/TIOCGPTN", code: code)
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let code = errno
            Glibc.close(master)
            throw PseudoTerminalError(call: "open /dev/pts/\(number)", code: code)
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = withUnsafeMutablePointer(to: &size) { ioctl(master, UInt(TIOCSWINSZ), $0) }
        self.master = master
        self.slave = slave
        let thread = Thread { [self] in collect() }
        thread.name = "pty-reader"
        thread.start()
    }

    /// Types `text` as keystrokes.
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    public var bytes: [UInt8] { output.withLock { $0 } }

    public var screen: ScreenModel { ScreenModel(bytes: bytes, columns: columns, rows: rows) }

    /// Waits until the screen satisfies `condition`, at most `timeout`; returns the last screen
    /// and whether the condition held.
    public func waitForScreen(
        timeout: Duration = .seconds(3),
        _ condition: (ScreenModel) -> Bool
    ) async -> (screen: ScreenModel, met: Bool) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = self.screen
            if condition(screen) { return (screen, true) }
            if ContinuousClock.now >= deadline { return (screen, false) }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits (at most a second) until everything written to the terminal so far is in `bytes`.
    public func settle() {
        for _ in 0..<1000 {
            var unread: Int32 = 0
            _ = withUnsafeMutablePointer(to: &unread) { ioctl(master, UInt(FIONREAD), $0) }
            if unread == 0, !reading.withLock({ $0 }) { return }
            usleep(1000)
        }
    }

    /// Stops the reader and closes both sides (the editor then sees the terminal gone).
    public func close() {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        readerDone.wait()
        Glibc.close(slave)
        Glibc.close(master)
    }

    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stopping.withLock({ $0 }) {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            reading.withLock { $0 = true }
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                output.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            reading.withLock { $0 = false }
            if count > 0 {
                continue
            } else if count < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                break
            }
        }
        readerDone.signal()
    }
}

extension PseudoTerminal {
    /// Waits until everything written so far satisfies `condition` (checked on the raw bytes,
    /// as text), at most `timeout`; whether it did. For output too long to model as a screen.
    public func waitForBytes(timeout: Duration, _ condition: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(tail) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(tail)
    }

    /// The last 64 KiB written, copied without the rest.
    private var tail: String {
        String(decoding: output.withLock { Array($0.suffix(64 * 1024)) }, as: UTF8.self)
    }
}
