/// The logged-in connections of each user, in login order.
///
/// Each user's connections form a list threaded through `BrokerConnection.nextOfUser`, so the
/// table holds one reference per user: an array per user (most have one device) cost every
/// idle connection a 48-byte heap block of its own.
struct OnlineUsers {
    private var first: [UserKey: BrokerConnection] = [:]

    /// Users with a connection here.
    var users: Dictionary<UserKey, BrokerConnection>.Keys { first.keys }

    func isOnline(_ key: UserKey) -> Bool { first[key] != nil }

    /// The user's connections as they are now: the caller may log them out while going through them.
    func connections(of key: UserKey) -> [BrokerConnection] {
        var result: [BrokerConnection] = []
        forEach(of: key) { result.append($0) }
        return result
    }

    /// Calls `body` with each of the user's connections without copying them out (the delivery
    /// path); `body` may remove the connection it is given, and no other.
    func forEach(of key: UserKey, _ body: (BrokerConnection) -> Void) {
        var next = first[key]
        while let broker = next {
            next = broker.nextOfUser
            body(broker)
        }
    }

    /// Every connection of every user.
    var all: [BrokerConnection] {
        first.keys.flatMap { connections(of: $0) }
    }

    mutating func append(_ broker: BrokerConnection, for key: UserKey) {
        broker.nextOfUser = nil
        guard var last = first[key] else {
            first[key] = broker
            return
        }
        while let next = last.nextOfUser { last = next }
        last.nextOfUser = broker
    }

    mutating func remove(_ broker: BrokerConnection, for key: UserKey) {
        guard let head = first[key] else { return }
        if head === broker {
            first[key] = broker.nextOfUser
        } else {
            var previous = head
            while let next = previous.nextOfUser, next !== broker { previous = next }
            guard previous.nextOfUser === broker else { return }
            previous.nextOfUser = broker.nextOfUser
        }
        broker.nextOfUser = nil
    }
}
