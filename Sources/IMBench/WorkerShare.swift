/// Which share of a `--workers N` run a worker process runs: `K/N`, K from 1.
struct WorkerShare: Sendable, Equatable, CustomStringConvertible {
    var index: Int
    var count: Int

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads `K/N` with 1 <= K <= N.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    var description: String { "\(index)/\(count)" }

    /// The contiguous range of `total` items this share takes: the first `total % count` shares
    /// take one more.
    func range(of total: Int) -> Range<Int> {
        let base = total / count, extra = total % count, zero = index - 1
        let lower = zero * base + min(zero, extra)
        return lower..<(lower + base + (zero < extra ? 1 : 0))
    }
}
