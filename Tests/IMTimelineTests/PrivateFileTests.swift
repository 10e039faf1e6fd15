import Foundation
import IMTimeline
import Testing

@Suite struct PrivateFileTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "imsh-private-file-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }()

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func newAndExistingFilesEndUpPrivate() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/timeline.svg"
        #expect(PrivateFile.write("<svg/>", to: path) == nil)
        #expect(try mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<svg/>")
        let shared = "\(directory)/shared.html"
        _ = FileManager.default.createFile(atPath: shared, contents: Data("old, longer contents".utf8), attributes: [.posixPermissions: 0o644])
        #expect(PrivateFile.write("new", to: shared) == nil)
        #expect(try mode(shared) == 0o600)
        #expect(try String(contentsOfFile: shared, encoding: .utf8) == "new")
    }

    @Test func aSymbolicLinkIsRefusedAndItsTargetUntouched() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = "\(directory)/target", link = "\(directory)/link.html"
        _ = FileManager.default.createFile(atPath: target, contents: Data("keep".utf8), attributes: [.posixPermissions: 0o644])
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let failure = PrivateFile.write("overwritten", to: link)
        #expect(failure == "cannot write \(link): it is a symbolic link")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        #expect(try mode(target) == 0o644)
        #expect(PrivateFile.write("x", to: "\(directory)/missing/file.svg")?.hasPrefix("cannot write") == true)
    }
}
