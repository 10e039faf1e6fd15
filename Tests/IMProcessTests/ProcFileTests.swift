import IMProcess
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Directories listed and counted as /proc's are: every name but `.` and `..`, names that
/// only start with dots included.
struct ProcFileTests {
    @Test func aDirectoryIsListedAndCountedWithoutItsDotEntries() throws {
        var template = Array("/tmp/procfile-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer {
            for name in ProcFile.entries(directory) { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        #expect(ProcFile.count(directory) == 0)
        for name in ["1", "...", ".hidden", "fd-2"] {
            let descriptor = open(directory + "/" + name, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        #expect(ProcFile.entries(directory).sorted() == ["...", ".hidden", "1", "fd-2"])
        #expect(ProcFile.count(directory) == 4)
        #expect(ProcFile.count(directory + "/missing") == 0)
        #expect(ProcFile.entries(directory + "/missing").isEmpty)
    }

    /// Names of every length a file system allows (1 to 255 bytes), past a few of glibc's
    /// buffers of entries: each listed whole, and this process's descriptors counted as /proc
    /// lists them.
    @Test func namesOfEveryLengthAreListedWhole() throws {
        var template = Array("/tmp/procfile-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        let names = (1...255).flatMap { length in ["a", "b", "c"].map { String(repeating: $0, count: length) } }
        defer {
            for name in names { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        for name in names {
            let descriptor = open(directory + "/" + name, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        #expect(ProcFile.entries(directory).sorted() == names.sorted())
        #expect(ProcFile.count(directory) == names.count)
        let held = (0..<200).map { _ in open(directory + "/a", O_RDONLY) }
        defer { for descriptor in held { close(descriptor) } }
        let listed = ProcFile.entries("/proc/self/fd").compactMap { Int32($0) }
        #expect(held.allSatisfy { listed.contains($0) })
    }
}
