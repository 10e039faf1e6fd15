#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp, removed with its files when released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/imstore-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        precondition(created, "mkdtemp failed: errno \(errno)")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        for name in fileNames() {
            unlink("\(path)/\(name)")
        }
        rmdir(path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The names of the files in the directory, sorted.
    func fileNames() -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func write(_ bytes: [UInt8], to name: String) {
        let descriptor = open(file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        precondition(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Overwrites `bytes.count` bytes at `offset` without truncating the file.
    func overwrite(_ name: String, at offset: Int, with bytes: [UInt8]) {
        let descriptor = open(file(name), O_WRONLY)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        precondition(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) } == bytes.count)
    }

    func read(_ name: String) -> [UInt8] {
        let descriptor = open(file(name), O_RDONLY)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            result += chunk[0..<count]
        }
        return result
    }
}
