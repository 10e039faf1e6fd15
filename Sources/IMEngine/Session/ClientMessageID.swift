import Synchronization

/// Makes client message ids (cids): unique without coordination, without a system call each.
///
/// A cid must differ from every other cid of its sender, across restarts and processes: the
/// server takes a second message with the same (app, sender, cid) for a resend. So each
/// process draws 64 random bits once, and a counter that starts at a random value runs
/// beneath them; two processes collide only if they draw the same 64 bits. Drawing 128
/// random bits per message instead cost two getrandom(2) calls each.
enum ClientMessageID {
    private static let prefix = hex(UInt64.random(in: .min ... .max))
    private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    /// A new cid: 32 lowercase hex digits.
    static func next() -> String {
        prefix + hex(counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
