#if canImport(Glibc)
import Glibc
#endif

/// The history kept between runs: one entry per line, UTF-8, private to the user (mode 0600).
///
/// Accepted lines are appended as they come; the file is rewritten (through a temporary file
/// and rename(2), so it is never half-written) when it is loaded with more than `limit` entries,
/// with repeats or with lines the filter now rejects, and when a long session has doubled it.
/// Backslash, newline and carriage return inside an entry are written as `\\`, `\n` and `\r`.
/// Confined to the editor thread.
final class HistoryFile {
    let path: String
    let limit: Int
    /// The entries, oldest first, as the file holds them once rewritten.
    private(set) var entries: [String]
    private var descriptor: Int32
    private var linesInFile: Int

    /// Opens (creating it if needed) and loads the file, tightening its permissions to 0600.
    init(path: String, limit: Int, keep: (String) -> Bool) throws(LineEditorError) {
        self.path = path
        self.limit = limit
        descriptor = try Self.openForAppending(path)
        let lines: [String]
        do throws(LineEditorError) {
            lines = try Self.readLines(descriptor, path: path)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        var kept: [String] = []
        for line in lines.map(Self.decode) where keep(line) && kept.last != line {
            kept.append(line)
        }
        entries = Array(kept.suffix(limit))
        linesInFile = lines.count
        if entries.count != lines.count {
            try rewrite()
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Appends an entry, unless it repeats the last one. Write errors are ignored: losing a
    /// history line must not stop the shell.
    func append(_ entry: String) {
        guard entries.last != entry else { return }
        entries.append(entry)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        let bytes = Array((Self.encode(entry) + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        linesInFile += 1
        if linesInFile > 2 * limit { try? rewrite() }
    }

    /// Replaces the file with `entries`, then appends to the new file.
    private func rewrite() throws(LineEditorError) {
        let temporary = "\(path).\(getpid()).tmp"
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw .historyFile(temporary, "open") }
        let text = entries.map { Self.encode($0) + "\n" }.joined()
        let written = Array(text.utf8).withUnsafeBytes { Self.writeAll(output, $0) }
        let closed = Glibc.close(output)
        guard written, closed == 0, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .historyFile(path, "rewrite", code: code)
        }
        let reopened = try Self.openForAppending(path)
        Glibc.close(descriptor)
        descriptor = reopened
        linesInFile = entries.count
    }

    private static func openForAppending(_ path: String) throws(LineEditorError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .historyFile(path, "open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw .historyFile(path, "fstat", code: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw .historyFile(path: path, reason: "not a regular file")
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
            let code = errno
            Glibc.close(descriptor)
            throw .historyFile(path, "chmod 0600", code: code)
        }
        return descriptor
    }

    private static func readLines(_ descriptor: Int32, path: String) throws(LineEditorError) -> [String] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .historyFile(path, "read") }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
        return bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    static func encode(_ entry: String) -> String {
        var encoded = ""
        for character in entry.unicodeScalars {
            switch character {
            case "\\": encoded += "\\\\"
            case "\n": encoded += "\\n"
            case "\r": encoded += "\\r"
            default: encoded.unicodeScalars.append(character)
            }
        }
        return encoded
    }

    static func decode(_ line: String) -> String {
        var decoded = String.UnicodeScalarView()
        var escaped = false
        for character in line.unicodeScalars {
            if escaped {
                switch character {
                case "n": decoded.append("\n")
                case "r": decoded.append("\r")
                default: decoded.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                decoded.append(character)
            }
        }
        return String(decoded)
    }
}
