#if canImport(Glibc)
import Glibc
#endif

/// Identifies a timer scheduled on an event loop, for cancelling it.
public struct TimerID: Hashable, Sendable {
    let rawValue: UInt64
}

/// The timers of one event loop: a binary min-heap of deadlines, confined to the loop thread.
///
/// Cancelling only forgets the action; the heap entry stays until it surfaces or until
/// stale entries outnumber live ones, when the heap is rebuilt. That keeps the common
/// pattern "reschedule a keep-alive timer on every packet" at O(log n).
struct TimerQueue {
    private struct Entry {
        var deadline: UInt64
        var id: UInt64

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var lastID: UInt64 = 0

    var isEmpty: Bool { actions.isEmpty }

    mutating func schedule(at deadline: UInt64, _ action: @escaping () -> Void) -> TimerID {
        lastID += 1
        actions[lastID] = action
        push(Entry(deadline: deadline, id: lastID))
        return TimerID(rawValue: lastID)
    }

    mutating func cancel(_ id: TimerID) {
        guard actions.removeValue(forKey: id.rawValue) != nil else { return }
        if heap.count > 64 && heap.count > 4 * actions.count {
            heap.removeAll { actions[$0.id] == nil }
            heap.sort { $0.precedes($1) }  // a sorted array is a valid heap
        }
    }

    /// The earliest live deadline, dropping cancelled entries on the way.
    mutating func nextDeadline() -> UInt64? {
        while let top = heap.first {
            if actions[top.id] != nil { return top.deadline }
            popTop()
        }
        return nil
    }

    /// Removes and returns the actions due at `now`, earliest first.
    mutating func takeExpired(now: UInt64) -> [() -> Void] {
        var due: [() -> Void] = []
        while let top = heap.first, top.deadline <= now {
            popTop()
            if let action = actions.removeValue(forKey: top.id) { due.append(action) }
        }
        return due
    }

    mutating func removeAll() {
        heap.removeAll()
        actions.removeAll()
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}

/// Nanoseconds on the monotonic clock, which never jumps with wall-clock changes.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

extension Duration {
    /// Whole nanoseconds, clamped at zero.
    public var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
