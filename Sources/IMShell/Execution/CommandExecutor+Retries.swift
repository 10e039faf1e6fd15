import IMProfiles

extension CommandExecutor {
    /// One retry of a backoff schedule, as the book's journal holds it.
    struct Retry {
        var attempt: Int
        /// The wait the engine planned, in seconds.
        var wait: Double
        /// When the shell heard of it, in milliseconds since the epoch.
        var at: Int64
    }

    /// The retries of the account's latest backoff schedule: from its latest retry numbered 2,
    /// which the engine gives the first retry of a fresh schedule (attempt 1 being the first try).
    func latestSchedule(of account: AccountReference) -> [Retry] {
        let retries = book.journal(limit: SessionBook.journalLimit).compactMap { event -> Retry? in
            guard event.account == account, case let .retry(attempt, delay, _) = event.kind else { return nil }
            let (seconds, attoseconds) = delay.components
            return Retry(attempt: attempt, wait: Double(seconds) + Double(attoseconds) / 1e18, at: event.at)
        }
        guard let start = retries.lastIndex(where: { $0.attempt == 2 }) else { return [] }
        return Array(retries[start...])
    }

    /// `expect ACCOUNT retries`: nil until one more retry than `waits` has come; then whether
    /// each planned its wait and the next came that late.
    func retriesVerdict(_ account: AccountReference, _ waits: [Double], tolerance: Double) -> ExpectationVerdict? {
        let run = latestSchedule(of: account)
        guard run.count > waits.count else { return nil }
        let seen = Self.describe(run)
        var spacings: [String] = []
        for (index, wait) in waits.enumerated() {
            // The engine plans whole milliseconds.
            guard abs(run[index].wait - wait) < 0.0005 else {
                return .failed("retry \(index + 1) of its latest schedule planned \(Self.seconds(run[index].wait)), not \(Self.seconds(wait)) (\(seen))")
            }
            let took = Double(run[index + 1].at - run[index].at) / 1000
            guard abs(took - wait) <= tolerance else {
                return .failed("retry \(index + 2) came \(took) s after retry \(index + 1), not \(Self.seconds(wait)) within \(Self.seconds(tolerance)) (\(seen))")
            }
            spacings.append(String(took))
        }
        return .met("its retries came \(spacings.joined(separator: ", ")) s apart")
    }

    /// `expect ACCOUNT retries` when the time is up before enough retries came.
    func retriesShortfall(_ account: AccountReference, _ waits: [Double]) -> ExpectationVerdict {
        let run = latestSchedule(of: account)
        return .failed("its latest schedule made \(run.count) retries, not the \(waits.count + 1) awaited (\(Self.describe(run)))")
    }

    /// `attempt 2 in 0.05 s at 12:00:01.250, ...`, or `none`.
    private static func describe(_ run: [Retry]) -> String {
        run.isEmpty ? "none" : run.map { "attempt \($0.attempt) in \(seconds($0.wait)) at \(clock($0.at))" }.joined(separator: ", ")
    }
}
