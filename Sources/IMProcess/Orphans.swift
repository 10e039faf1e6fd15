import CProcess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a child left running outside its process group (`setsid`, a daemon's double fork), found
/// and killed when its `ChildProcess.run` ends, so that nothing a run started outlives it.
///
/// Linux only: a process that calls `adopt()` becomes the reaper of its descendants' orphans
/// (`PR_SET_CHILD_SUBREAPER`), so such a process, once its parent is gone, is our child rather
/// than init's. Each run marks its child's environment with a variable of its own, which every
/// descendant inherits; at the run's end the adopted children carrying the mark are killed
/// with their process groups, and what they leave is adopted and killed in turn. Not covered:
/// a descendant that clears its environment (`env -i`), one whose parent is still alive and not
/// a child of the run, and everything once the adopting process itself is killed with SIGKILL.
public enum Orphans {
    /// The environment variable that marks a run's descendants.
    public static let variable = "IMSH_RUN"
    static let adopting = Atomic<Bool>(false)
    static let runs = Atomic<Int>(0)
    /// Children spawned here and not yet reaped by `wait`: an adopted zombie is reaped by the
    /// sweep, these never are (their owner waits for them). Held across `posix_spawn` so that a
    /// new child is listed before a sweep can see it. A child reaped other than by `wait` stays
    /// listed; nothing in an adopting process (imsh) does that.
    static let spawned = Mutex<Set<pid_t>>([])

    /// Makes this process the reaper of its descendants' orphans; false where the system does
    /// not allow it (then runs clean up their process groups only).
    @discardableResult
    public static func adopt() -> Bool {
        guard imsh_set_child_subreaper() == 0 else { return false }
        adopting.store(true, ordering: .relaxed)
        return true
    }

    /// A fresh mark (`IMSH_RUN=pid.n`) and `environment` (nil: ours) with it, or nil and
    /// `environment` unchanged when this process adopts no orphans.
    static func marking(_ environment: [String: String]?) -> (mark: String?, environment: [String: String]?) {
        guard adopting.load(ordering: .relaxed) else { return (nil, environment) }
        let value = "\(getpid()).\(runs.add(1, ordering: .relaxed).newValue)"
        var marked = environment ?? current()
        marked[variable] = value
        return ("\(variable)=\(value)", marked)
    }

    /// Kills the adopted children that carry `mark`, and their groups, until none is left, and
    /// reaps every adopted child that has ended.
    static func sweep(_ mark: String) {
        for _ in 0..<64 {
            let killed = spawned.withLock { ours -> [pid_t] in
                var killed: [pid_t] = []
                for (pid, zombie) in adoptedChildren() where !ours.contains(pid) {
                    if zombie {
                        _ = waitpid(pid, nil, WNOHANG)
                    } else if environment(of: pid).contains(mark) {
                        if getpgid(pid) == pid { _ = kill(-pid, SIGKILL) }
                        _ = kill(pid, SIGKILL)
                        killed.append(pid)
                    }
                }
                return killed
            }
            guard !killed.isEmpty else { return }
            // Reaped, each one's own orphans are ours and the next round finds them.
            for pid in killed { while waitpid(pid, nil, 0) < 0 && errno == EINTR {} }
        }
    }

    /// Our children, each with whether it has ended, from /proc/PID/stat.
    private static func adoptedChildren() -> [(pid: pid_t, zombie: Bool)] {
        let me = getpid()
        return ProcFile.entries("/proc").compactMap { name in
            guard let pid = pid_t(name), let stat = ProcStat.of(pid: pid), stat.parent == me else { return nil }
            return (pid, stat.state == "Z")
        }
    }

    /// The process's environment as it started, one `NAME=value` each.
    private static func environment(of pid: pid_t) -> [String] {
        (ProcFile.read("/proc/\(pid)/environ") ?? "").split(separator: "\0").map(String.init)
    }

    /// This process's environment.
    private static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { variables[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer += 1
        }
        return variables
    }
}
