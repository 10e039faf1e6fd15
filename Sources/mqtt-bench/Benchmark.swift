import Glibc

/// Runs a batch-sized operation until a time budget is spent and reports the rate.
struct Benchmark {
    let packets: Int
    let duration: Duration

    /// Calls `body(batch)` with doubling batch sizes (rounded up to 1000 packets) until `seconds` have passed.
    ///
    /// `body` returns a value derived from its work so the optimizer cannot drop it.
    static func measure(seconds: Double, _ body: (Int) -> Int) -> Benchmark {
        let clock = ContinuousClock()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        var sink = 0
        var batch = 1000
        _ = body(batch)  // warm up
        var packets = 0
        var elapsed = Duration.zero
        while elapsed < budget {
            let start = clock.now
            sink &+= body(batch)
            elapsed += clock.now - start
            packets += batch
            if elapsed < budget / 4 { batch *= 2 }
        }
        if sink == Int.min { print(sink) }
        return Benchmark(packets: packets, duration: elapsed)
    }

    func report(bytesPerPacket: Int) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rate = Double(packets) / seconds
        let megabytes = rate * Double(bytesPerPacket) / 1_000_000
        return "\(format(rate / 1_000_000, digits: 2)) M packets/s  \(format(megabytes, digits: 1)) MB/s  (\(packets) packets in \(format(seconds, digits: 2)) s)"
    }

    private func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}

/// Standard error as a `TextOutputStream`, for messages that are not results.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
