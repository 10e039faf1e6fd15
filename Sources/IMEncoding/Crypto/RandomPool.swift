import CCrypto
import Synchronization

/// libcrypto's random bytes fetched a block at a time and handed out in order, each byte once.
///
/// Why: a call of `RAND_bytes` costs about a microsecond whatever its size (OpenSSL 3 looks up
/// its generator and updates its state at every call), and imserver asked for 10 bytes for
/// each message's uid: 2 % of its CPU at light load (BENCHMARKS.md, issue 17's tenth step).
/// The bytes are as unpredictable as the generator's; what changes is that up to a block of
/// them waits in memory, as the generator's own state does. A process that forked would hand
/// out the same bytes in both halves; imsh and imserver start other programs only through
/// `posix_spawn`, never by forking and going on.
final class RandomPool: Sendable {
    /// The process's pool, behind `Crypto.randomBytes`.
    static let shared = RandomPool()

    /// Bytes fetched at once; a request this size or larger goes to libcrypto directly.
    static let blockSize = 4096

    private struct Block {
        var bytes = [UInt8](repeating: 0, count: RandomPool.blockSize)
        /// Where the bytes not handed out yet begin; `blockSize` when there are none.
        var next = RandomPool.blockSize
    }

    private let block = Mutex(Block())

    /// Fills `destination` with bytes never handed out before.
    func fill(_ destination: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = destination.baseAddress, destination.count > 0 else { return }
        guard destination.count < Self.blockSize else {
            guard RAND_bytes(base.assumingMemoryBound(to: UInt8.self), Int32(destination.count)) == 1 else {
                throw CryptoError(function: "RAND_bytes")
            }
            return
        }
        let refilled = block.withLock { block -> Bool in
            if Self.blockSize - block.next < destination.count {
                guard RAND_bytes(&block.bytes, Int32(Self.blockSize)) == 1 else { return false }
                block.next = 0
            }
            let start = block.next
            block.bytes.withUnsafeMutableBytes { source in
                let taken = UnsafeMutableRawBufferPointer(rebasing: source[start..<start + destination.count])
                destination.copyMemory(from: UnsafeRawBufferPointer(taken))
                // Handed out once: the block's copy is wiped.
                _ = taken.initializeMemory(as: UInt8.self, repeating: 0)
            }
            block.next += destination.count
            return true
        }
        guard refilled else { throw CryptoError(function: "RAND_bytes") }
    }
}
