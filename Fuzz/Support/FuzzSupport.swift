// Shared by every fuzz target: the input as an array, a failure that names the oracle it broke,
// and the pseudo-random cuts that check a streaming decoder against the whole input at once.

/// The fuzzer's input as an array; libFuzzer may pass a null pointer for an empty input.
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run as a crash, so libFuzzer saves the input: an oracle of the target did not hold.
func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz oracle failed: \(message())", file: file, line: line)
}

/// How a stream decoder is fed the same input: all at once, a byte at a time, or in pieces.
enum Feeding: CaseIterable {
    case whole, byteByByte, pieces

    /// The input cut into pieces whose sizes depend only on the input, so a failure repeats.
    ///
    /// Sizes are drawn from 1...64 by SplitMix64 seeded with the input's FNV-1a hash: small
    /// pieces land inside headers and length fields, where resumption bugs hide.
    func pieces(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [bytes[...]]
        case .byteByByte:
            return bytes.indices.map { bytes[$0..<$0 + 1] }
        case .pieces:
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            var state = hash
            var result: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                let end = min(bytes.count, start + 1 + Int(z % 64))
                result.append(bytes[start..<end])
                start = end
            }
            return result
        }
    }
}

/// Checks that `value`, once written as `written`, reads back as the same value.
func checkReadsBack<Value: Equatable, Written, Failure: Error>(
    _ value: Value, written: Written, _ read: (Written) throws(Failure) -> Value,
    file: StaticString = #fileID, line: UInt = #line
) {
    do {
        let again = try read(written)
        if again != value { fuzzFailure("\(value) written as \(written) reads back as \(again)", file: file, line: line) }
    } catch {
        fuzzFailure("\(value) written as \(written) does not read back: \(error)", file: file, line: line)
    }
}
