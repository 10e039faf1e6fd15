import CProcess
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, with its standard streams on pipes.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3) can crash reading `/proc/self/fd` in a
/// process with many descriptors open (a dirent over-read, fixed upstream in
/// swift-corelibs-foundation PR 5472). Servers and engines here hold thousands of sockets,
/// so they start children through this type instead.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// A pipe; our end is in `stdin`/`stdout`/`stderr`.
        case pipe
        /// /dev/null.
        case null
        /// The same descriptor as ours.
        case inherit
        /// This descriptor of ours (a pseudo-terminal's slave side, say).
        case descriptor(Int32)
    }

    public let pid: pid_t
    /// Our end of the child's standard input, when piped.
    public let stdin: Int32?
    /// Our end of the child's standard output, when piped.
    public let stdout: Int32?
    /// Our end of the child's standard error, when piped.
    public let stderr: Int32?

    private init(pid: pid_t, stdin: Int32?, stdout: Int32?, stderr: Int32?) {
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    /// This process's executable (imsh, imserver, a test bundle), for starting it again as a
    /// worker or for finding the programs installed beside it.
    public static var ownExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    /// Starts `executable` (a path) with `arguments`; `environment` nil inherits ours;
    /// `directory` nil keeps ours. Descriptors other than the three streams are not inherited.
    /// The child starts with no signal blocked and every signal at its default action, whatever
    /// the spawning thread blocks or ignores, so `kill` reaches it. With `ownGroup` it leads a
    /// new process group, so `signalGroup` reaches everything it starts.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe, ownGroup: Bool = false
    ) throws(ChildProcessError) -> ChildProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ours: [Int32?] = [nil, nil, nil]
        var theirs: [Int32] = []
        defer { theirs.forEach { _ = close($0) } }
        for (target, stream) in [stdin, stdout, stderr].enumerated() {
            switch stream {
            case .inherit:
                continue
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target))
            case .null:
                posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe2(&ends, O_CLOEXEC) == 0 else {
                    ours.compactMap { $0 }.forEach { _ = close($0) }
                    throw ChildProcessError(call: "pipe2", code: errno, executable: executable)
                }
                let (childEnd, ourEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                ours[target] = ourEnd
                theirs.append(childEnd)
                posix_spawn_file_actions_adddup2(&actions, childEnd, Int32(target))
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let variables = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } }
        defer { variables?.forEach { free($0) } }
        var pid: pid_t = 0
        let code = Orphans.spawned.withLock { spawned in
            let code = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
                if let variables {
                    return (variables + [nil]).withUnsafeBufferPointer { envPointer in
                        posix_spawn(&pid, executable, &actions, &attributes, argvPointer.baseAddress!, envPointer.baseAddress!)
                    }
                }
                return posix_spawn(&pid, executable, &actions, &attributes, argvPointer.baseAddress!, environ)
            }
            if code == 0 { spawned.insert(pid) }
            return code
        }
        guard code == 0 else {
            ours.compactMap { $0 }.forEach { _ = close($0) }
            throw ChildProcessError(call: "posix_spawn", code: code, executable: executable)
        }
        return ChildProcess(pid: pid, stdin: ours[0], stdout: ours[1], stderr: ours[2])
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// The shell's view: the exit status, or 128 + the signal.
        public var status: Int32 {
            switch self {
            case .exited(let status): return status
            case .signaled(let signal): return 128 + signal
            }
        }
    }

    /// Waits for the child to end; blocks the calling thread.
    public func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        _ = Orphans.spawned.withLock { $0.remove(pid) }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Sends `signal` to the child.
    public func signal(_ number: Int32) {
        _ = kill(pid, number)
    }

    /// Sends `signal` to the child's process group (spawned with `ownGroup`). Safe until the
    /// child is reaped: while it is a zombie its pid, and so the group id, is not reused.
    public func signalGroup(_ number: Int32) {
        _ = kill(-pid, number)
    }

    /// Waits, without reaping, for the child to end: after this `signalGroup` still reaches
    /// what the child left behind, and `wait` returns at once.
    public func waitUnreaped() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    }

    /// Whether the child has ended, without waiting and without reaping it: `wait` still
    /// returns how it ended. For a child whose output goes to a file, where no end of file says so.
    public var hasEnded: Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0 {
            guard errno == EINTR else { return true }
        }
        // With WNOHANG and nothing to report, waitid leaves si_pid 0 (it was zeroed above).
        return info._sifields._sigchld.si_pid != 0
    }

    /// Closes our end of the child's standard input, so it sees end of file.
    public func closeStandardInput() {
        if let stdin { _ = close(stdin) }
    }
}

/// A child process could not be started.
public struct ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var executable: String

    public var description: String { "cannot start \(executable): \(call): \(String(cString: strerror(code)))" }
}
