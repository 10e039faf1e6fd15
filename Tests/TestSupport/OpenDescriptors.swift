import Foundation
import IMProcess

/// This process's open descriptors, as /proc/self/fd lists them.
public enum OpenDescriptors {
    /// How many of this process's descriptors are open on `path`.
    public static func count(on path: String) -> Int {
        count { $0 == path }
    }

    /// How many of this process's descriptors are TCP connections accepted on `port`: what a
    /// server in this process holds for its peers (its listening socket not counted; sockets
    /// still in the accept queue, or closed and left to the kernel, have no descriptor).
    public static func connections(acceptedOn port: UInt16) -> Int {
        let localPort = String(format: ":%04X", port)
        var sockets: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read whole: Foundation stops at the first page of a /proc file, which reports size 0.
            let text = ProcFile.read(table) ?? ""
            // Fields: sl, local address, remote address, state (0A: listening), queues, timer,
            // retransmits, uid, timeout, inode (0 once no descriptor refers to the socket).
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(localPort), fields[3] != "0A", fields[9] != "0" else { continue }
                sockets.insert("socket:[\(fields[9])]")
            }
        }
        return count { sockets.contains($0) }
    }

    /// How many of this process's descriptors point at a target `matches` takes.
    private static func count(where matches: (String) -> Bool) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.count { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")).map(matches) ?? false
        }
    }
}
