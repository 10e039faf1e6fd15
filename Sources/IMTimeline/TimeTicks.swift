/// Round instants for a time axis: every 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 6, 12 h or days.
enum TimeTicks {
    static let steps: [Int64] = [
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
        1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000,
    ]

    /// At most `count` round instants within `start`...`end`.
    static func instants(from start: Int64, to end: Int64, count: Int) -> [Int64] {
        let span = max(1, end - start)
        let step = steps.first { span / $0 < Int64(count) } ?? max(1, span / Int64(count))
        var tick = (start + step - 1) / step * step
        var result: [Int64] = []
        while tick <= end {
            result.append(tick)
            tick += step
        }
        return result
    }
}
