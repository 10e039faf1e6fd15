import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory (mode 0700) under the system's temporary directory, removed with
/// everything in it when released: one per test.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// `prefix` starts the directory's name, to tell whose it is when one is left behind.
    public init(prefix: String = "imsh-test") {
        var template = Array((NSTemporaryDirectory() + prefix + "-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        precondition(created, "mkdtemp failed: errno \(errno)")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The names of the entries of `subpath` (the directory itself by default), sorted.
    public func contents(of subpath: String = "") -> [String] {
        let folder = subpath.isEmpty ? path : "\(path)/\(subpath)"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The names of the files in the directory, sorted.
    public func fileNames() -> [String] { contents() }

    /// Writes `bytes` to `name` (created 0600, truncated).
    public func write(_ bytes: [UInt8], to name: String) {
        let descriptor = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        precondition(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Writes `text` to `name` and returns the file's path.
    @discardableResult
    public func write(_ text: String, to name: String) -> String {
        write(Array(text.utf8), to: name)
        return file(name)
    }

    /// Overwrites `bytes.count` bytes at `offset` without truncating the file.
    public func overwrite(_ name: String, at offset: Int, with bytes: [UInt8]) {
        let descriptor = open(file(name), O_WRONLY)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        precondition(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) } == bytes.count)
    }

    /// The bytes of `name`; empty when it cannot be read.
    public func read(_ name: String) -> [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: file(name))))) ?? []
    }
}
