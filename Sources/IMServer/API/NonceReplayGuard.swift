import Synchronization

/// Refuses a request whose nonce the same app already used within the timestamp window.
///
/// A nonce is remembered until `max(now, timestamp) + window`: past that, the timestamp
/// check alone refuses an exact replay, and a new request may reuse the nonce. Memory is
/// bounded: expired nonces are dropped as new ones arrive, and an app holds at most
/// `capacity` live nonces; beyond that its requests are refused (`full`) until some expire,
/// so a flood costs a fixed amount of memory instead of unbounded growth. Only requests
/// whose signature checked out reach the guard, so only holders of an app's secret can fill
/// its share. Safe from any thread (one lock, held briefly).
final class NonceReplayGuard: Sendable {
    enum Verdict: Equatable {
        case accepted
        /// The nonce was used within the window.
        case replayed
        /// The app has `capacity` live nonces; the oldest expires in `retryAfter` ms.
        case full(retryAfter: Int64)
    }

    let capacity: Int
    let window: Int64
    private let apps = Mutex<[String: AppNonces]>([:])

    init(capacity: Int, window: Int64) {
        precondition(capacity > 0 && window > 0)
        self.capacity = capacity
        self.window = window
    }

    /// Checks `nonce` for `appKey` at `now` (ms) and remembers it when accepted.
    func admit(appKey: String, nonce: String, timestamp: Int64, now: Int64) -> Verdict {
        let expiry = expiry(timestamp: timestamp, now: now)
        return apps.withLock { apps in
            apps[appKey, default: AppNonces()].admit(nonce, expiry: expiry, now: now, capacity: capacity)
        }
    }

    /// Until when a nonce used at `now` with `timestamp` must be remembered.
    func expiry(timestamp: Int64, now: Int64) -> Int64 {
        let (sum, overflow) = max(now, timestamp).addingReportingOverflow(window)
        return overflow ? Int64.max : sum
    }

    /// Live nonces remembered for `appKey` (for tests and monitoring).
    func count(appKey: String, now: Int64) -> Int {
        apps.withLock { apps in
            apps[appKey]?.dropExpired(now: now)
            return apps[appKey]?.count ?? 0
        }
    }
}

/// One app's nonces: a lookup table plus their arrival order, to expire the oldest first.
private struct AppNonces {
    private var expiries: [String: Int64] = [:]
    private var order: [(nonce: String, expiry: Int64)] = []
    private var head = 0

    var count: Int { expiries.count }

    mutating func admit(_ nonce: String, expiry: Int64, now: Int64, capacity: Int) -> NonceReplayGuard.Verdict {
        dropExpired(now: now)
        if let seen = expiries[nonce], seen > now { return .replayed }
        guard expiries.count < capacity else {
            return .full(retryAfter: max(1, order[head].expiry - now))
        }
        expiries[nonce] = expiry
        order.append((nonce, expiry))
        return .accepted
    }

    /// Drops nonces from the front of the arrival order while they are expired. Expiries are
    /// nearly in arrival order (they differ by at most the window), so this finds them all soon.
    mutating func dropExpired(now: Int64) {
        while head < order.count, order[head].expiry <= now {
            let entry = order[head]
            // A nonce accepted again after expiring has a newer entry further back: keep it.
            if expiries[entry.nonce] == entry.expiry { expiries[entry.nonce] = nil }
            head += 1
        }
        if head == order.count {
            order.removeAll(keepingCapacity: order.count < 1024)
            head = 0
        } else if head > 1024 && head > order.count / 2 {
            order.removeFirst(head)
            head = 0
        }
    }
}
