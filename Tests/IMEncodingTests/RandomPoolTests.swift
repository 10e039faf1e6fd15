import Testing
@testable import IMEncoding

/// The pool hands out libcrypto's bytes once each, across its refills, and sends large
/// requests to libcrypto directly.
struct RandomPoolTests {
    @Test func drawsAcrossRefillsAreWholeAndNeverRepeat() throws {
        let pool = RandomPool()
        var seen: Set<[UInt8]> = []
        // Three blocks and a bit in uid-sized draws, so that several straddle a refill.
        for _ in 0..<(3 * RandomPool.blockSize / 10 + 7) {
            var draw = [UInt8](repeating: 0, count: 10)
            try draw.withUnsafeMutableBytes { try pool.fill($0) }
            // Ten zero bytes from a CSPRNG would be a 2^-80 event: they mean a wiped copy.
            #expect(draw != [UInt8](repeating: 0, count: 10))
            #expect(seen.insert(draw).inserted)
        }
    }

    @Test func largeAndEmptyRequestsAreServed() throws {
        let pool = RandomPool()
        var large = [UInt8](repeating: 0, count: RandomPool.blockSize * 2)
        try large.withUnsafeMutableBytes { try pool.fill($0) }
        #expect(large.filter { $0 == 0 }.count < large.count / 64)
        var empty: [UInt8] = []
        try empty.withUnsafeMutableBytes { try pool.fill($0) }
        #expect(try Crypto.randomBytes(RandomPool.blockSize - 1).count == RandomPool.blockSize - 1)
    }
}
