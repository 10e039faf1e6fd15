/// A small seeded random number generator (xorshift64*), so a run of random faults can be
/// repeated from its seed. Not for anything secret.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Every seed, 0 included, gives its own sequence.
    public init(seed: UInt64) {
        // xorshift needs a non-zero state; the odd constant keeps distinct seeds distinct.
        let mixed = seed ^ 0x9E37_79B9_7F4A_7C15
        state = mixed == 0 ? 0x9E37_79B9_7F4A_7C15 : mixed
    }

    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A value in `range`, by modulo: the bias is far below what a fault schedule can show.
    mutating func value(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }
}
