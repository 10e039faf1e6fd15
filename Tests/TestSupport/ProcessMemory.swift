import Foundation

/// What /proc says of a process's memory, in KiB: `VmRSS` (all resident) and `RssAnon` (heap
/// and other anonymous pages, without file pages).
public struct ProcessMemory: Sendable {
    public var resident: Int
    public var anonymous: Int

    /// The figures of `pid` (nil: this process); nil when /proc does not say.
    public static func of(pid: Int32? = nil) -> ProcessMemory? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, let value = Int(words[1]) { fields[words[0]] = value }
        }
        guard let resident = fields["VmRSS:"], let anonymous = fields["RssAnon:"] else { return nil }
        return ProcessMemory(resident: resident, anonymous: anonymous)
    }
}
