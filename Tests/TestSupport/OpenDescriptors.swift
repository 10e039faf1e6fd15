import Foundation

/// This process's open descriptors, as /proc/self/fd lists them.
public enum OpenDescriptors {
    /// How many of this process's descriptors are open on `path`.
    public static func count(on path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == path
        }
    }
}
