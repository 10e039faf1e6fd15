/// Finds every occurrence of many byte strings in one pass over a text (Aho-Corasick): the
/// time per text is its length plus the matches, whatever the number of strings.
///
/// Built once per set of strings. The root's transitions are a dense table, so a position
/// where no string can start costs one array read.
struct SecretAutomaton: Sendable {
    /// One occurrence: where it starts and which string it is.
    struct Match: Equatable {
        var start: Int
        var pattern: Int
    }

    let patterns: [[UInt8]]
    private var root = [Int32](repeating: 0, count: 256)
    private var transitions: [[UInt8: Int32]] = [[:]]
    private var failure: [Int32] = [0]
    /// The patterns that end exactly at each node.
    private var ends: [[Int32]] = [[]]
    /// The nearest node down the failure chain where some pattern ends (-1: none).
    private var nextEnd: [Int32] = [-1]

    init(_ patterns: [[UInt8]]) {
        self.patterns = patterns
        for (index, pattern) in patterns.enumerated() where !pattern.isEmpty { insert(pattern, index) }
        for byte in 0..<256 { root[byte] = transitions[0][UInt8(byte)] ?? 0 }
        linkFailures()
    }

    private mutating func insert(_ pattern: [UInt8], _ index: Int) {
        var node = 0
        for byte in pattern {
            if let next = transitions[node][byte] {
                node = Int(next)
            } else {
                transitions.append([:])
                failure.append(0)
                ends.append([])
                nextEnd.append(-1)
                transitions[node][byte] = Int32(transitions.count - 1)
                node = transitions.count - 1
            }
        }
        ends[node].append(Int32(index))
    }

    /// Breadth first, each node's failure is the longest proper suffix of its path that is a prefix of some pattern.
    private mutating func linkFailures() {
        var queue = Array(transitions[0].values)
        var head = 0
        while head < queue.count {
            let node = Int(queue[head])
            head += 1
            for (byte, child) in transitions[node] {
                queue.append(child)
                var fallback = failure[node]
                while fallback != 0, transitions[Int(fallback)][byte] == nil { fallback = failure[Int(fallback)] }
                let target = node == 0 ? 0 : (fallback == 0 ? root[Int(byte)] : transitions[Int(fallback)][byte] ?? 0)
                failure[Int(child)] = target == child ? 0 : target
                let suffix = Int(failure[Int(child)])
                nextEnd[Int(child)] = ends[suffix].isEmpty ? nextEnd[suffix] : Int32(suffix)
            }
        }
    }

    /// Every occurrence in `text`, in order of their ends.
    func matches(in text: [UInt8]) -> [Match] {
        var found: [Match] = []
        var node = 0
        for (position, byte) in text.enumerated() {
            while node != 0, transitions[node][byte] == nil { node = Int(failure[node]) }
            node = node == 0 ? Int(root[Int(byte)]) : Int(transitions[node][byte]!)
            var end = ends[node].isEmpty ? Int(nextEnd[node]) : node
            while end > 0 {
                for pattern in ends[end] { found.append(Match(start: position + 1 - patterns[Int(pattern)].count, pattern: Int(pattern))) }
                end = Int(nextEnd[end])
            }
        }
        return found
    }

    /// The occurrences to replace: leftmost first, the longest where several start together,
    /// none overlapping one already taken.
    func replacements(in text: [UInt8]) -> [Match] {
        let all = matches(in: text).sorted {
            $0.start != $1.start ? $0.start < $1.start : patterns[$0.pattern].count > patterns[$1.pattern].count
        }
        var chosen: [Match] = []
        var free = 0
        for match in all where match.start >= free {
            chosen.append(match)
            free = match.start + patterns[match.pattern].count
        }
        return chosen
    }
}
