import LineEditor
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the shell's lines go: standard output and error, or above the REPL's prompt.
public protocol ShellOutput: Sendable {
    /// Writes `text` (one or more lines, without the final newline).
    func write(_ text: String, isError: Bool)
}

/// Standard output and error, one whole write per call, so lines from the sessions' queues
/// and from commands never interleave.
public final class StandardOutput: ShellOutput {
    private let lock = Mutex(())

    public init() {}

    public func write(_ text: String, isError: Bool) {
        let bytes = Array((text + "\n").utf8)
        lock.withLock { _ in
            var rest = bytes[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { Glibc.write(isError ? 2 : 1, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                rest = rest.dropFirst(written)
            }
        }
    }
}

/// Lines printed above the line being typed, which stays as it was.
public struct EditorOutput: ShellOutput {
    let editor: LineEditor

    public init(editor: LineEditor) {
        self.editor = editor
    }

    public func write(_ text: String, isError: Bool) {
        editor.printAbove(text)
    }
}
