import Foundation

/// The processes now running (zombies left out), found through /proc: what a test checks to
/// see that nothing a child started outlived it.
public enum LiveProcesses {
    /// The pids whose command line, arguments joined by spaces, is exactly `commandLine`.
    public static func matching(_ commandLine: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !raw.isEmpty,
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  !status.contains("State:\tZ")
            else { return nil }
            let words = raw.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            return words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") == commandLine ? pid : nil
        }
    }

    /// Waits up to `limit` for no process to match `commandLine`; the ones still there.
    public static func awaitGone(_ commandLine: String, within limit: Duration = .seconds(3)) -> [Int32] {
        let end = ContinuousClock.now + limit
        while true {
            let left = matching(commandLine)
            if left.isEmpty || ContinuousClock.now > end { return left }
            usleep(50_000)
        }
    }
}
