import IMEncoding
import IMProtocol

extension ServerStore {
    /// The separator of `message.recipients` (both stores); no user id can contain it.
    static var recipientSeparator: Character { "," }

    /// The `device.device_id` of a user's placeholder queue (both stores): '' is never a valid device id.
    static var placeholderDeviceID: String { "" }

    /// Throws for the first id that is not a valid user id.
    static func validate(userIDs: [String]) throws(ServerStoreError) {
        if let bad = userIDs.first(where: { !IMIdentifier.isValidUserID($0) }) {
            throw .invalidUserID(bad)
        }
    }

    /// Checks the messages' user ids and makes their uids: the part of storing that needs no
    /// transaction, done before one opens.
    func prepare(_ messages: [NewMessage]) throws(ServerStoreError) -> [String] {
        for message in messages {
            try Self.validate(userIDs: [message.from] + message.to)
        }
        return try newUIDs(sentAt: messages.map(\.sentAt))
    }

    /// What storing `messages` is called in an error.
    static func storingOperation(_ messages: [NewMessage]) -> String {
        "store \(messages.count == 1 ? "a message" : "\(messages.count) messages")"
    }

    /// One uid per time: 6 bytes of the time (ms, big-endian) then 10 random bytes (80 bits),
    /// unpadded base64url, 22 characters.
    ///
    /// The time prefix orders uids by time; the 80 random bits are what keeps them unique
    /// (nothing indexes them since schema v4).
    func newUIDs(sentAt times: [Int64]) throws(ServerStoreError) -> [String] {
        let randomLength = 10
        let random: [UInt8]
        do {
            random = try Crypto.randomBytes(randomLength * times.count)
        } catch {
            throw .failed(operation: "make message uids", path: location, reason: "\(error)")
        }
        return times.enumerated().map { index, time in
            let clamped = UInt64(max(time, 0))
            // Six bytes of time, then the random ones, put together on the stack.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 + randomLength) { uid in
                for position in 0..<6 { uid[position] = UInt8(truncatingIfNeeded: clamped >> (40 - 8 * position)) }
                for position in 0..<randomLength { uid[6 + position] = random[index * randomLength + position] }
                return Base64URL.encode(UnsafeBufferPointer(uid))
            }
        }
    }
}
