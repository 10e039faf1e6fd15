import IMPostgres
import Synchronization

/// This node's part in a service of several imserver nodes on one PostgreSQL database: its row
/// in `node` (kept fresh by `heartbeat`), the `presence` rows of its logged-in connections, and
/// a listener for the other nodes' `ClusterNotice`s.
///
/// A node that stops cleanly removes its rows. One killed with SIGKILL cannot: its rows are
/// ignored once its heartbeat is `deadAfter` old, and the next live node's heartbeat deletes
/// them, so a dead node's devices never block a login (`im-kick-enable`) for long.
final class PostgresCluster: Sendable {
    let store: PostgresServerStore
    var nodeName: String { store.nodeName }
    /// A node whose heartbeat is older than this (ms) counts as gone.
    static let deadAfter: Int64 = 10_000
    private let conninfo: String
    private let listener = Mutex<PostgresListener?>(nil)
    /// Notices this node's code sent through NOTIFY (logins while not every node is linked, API
    /// actions) and notices of other nodes it received there, for `/metrics`. Message notices
    /// come from the store function, uncounted; `NodeLinks` counts what goes over the links.
    let noticesSent = Atomic<Int>(0)
    let noticesReceived = Atomic<Int>(0)
    /// Where clients reach this node (`advertise`), written again with its row if the row was lost.
    let address = Mutex("")
    /// Where the other nodes link to this one (`NodeLinks`), likewise.
    let link = Mutex("")
    /// Whether a heartbeat is under way: the next waits for it rather than take another connection.
    private let heartbeating = Atomic<Bool>(false)

    init(store: PostgresServerStore, conninfo: String) {
        self.store = store
        self.conninfo = conninfo
    }

    /// Records the node with its link address, clears rows a previous run under the same name
    /// left, and starts listening. `onConnected` runs after every (re)connection of the listener, when
    /// notices may have been missed; `onNotice` gets the other nodes' notices in order.
    func start(
        now: Int64, link: String, onConnected: @escaping @Sendable () -> Void, onNotice: @escaping @Sendable (ClusterNotice) -> Void,
        onUnreadable: @escaping @Sendable (ClusterNoticeError) -> Void
    ) async throws(ServerStoreError) {
        let node = nodeName
        self.link.withLock { $0 = link }
        try await store.write("register node \(node)") { connection in
            _ = try connection.execute("DELETE FROM presence WHERE node = $1", [.text(node)])
            _ = try connection.execute("""
                INSERT INTO node(name, started_at, seen_at, link) VALUES ($1, $2, $2, $3)
                ON CONFLICT (name) DO UPDATE SET started_at = excluded.started_at, seen_at = excluded.seen_at, link = excluded.link
                """, [.text(node), .integer(now), .text(link)])
        }
        let own = ClusterNotice.prefix(of: node)
        let started = PostgresListener(conninfo: conninfo, channel: PostgresServerStore.channel, onConnected: onConnected) { payload in
            if payload.utf8.starts(with: own) { return }
            do throws(ClusterNoticeError) {
                let notice = try ClusterNotice(parsing: payload)
                guard notice.node != node else { return }
                self.noticesReceived.add(1, ordering: .relaxed)
                onNotice(notice)
            } catch {
                onUnreadable(error)
            }
        }
        listener.withLock { $0 = started }
    }

    /// Stops listening and removes this node's rows.
    func stop() async {
        let current = listener.withLock { current in
            defer { current = nil }
            return current
        }
        current?.stop()
        let node = nodeName
        _ = try? await store.write("leave the cluster") { connection in
            _ = try connection.execute("DELETE FROM presence WHERE node = $1", [.text(node)])
            _ = try connection.execute("DELETE FROM node WHERE name = $1", [.text(node)])
        }
    }

    /// Marks the node alive, removes what nodes silent for `deadAfter` left behind, and reads
    /// the live nodes' link addresses.
    ///
    /// The node's row was gone (`Beat.rowLost`) when PostgreSQL was out of this node's reach for
    /// longer than `deadAfter`: the other nodes took it for dead and removed its presence rows,
    /// which the caller must then write again. Returns nil at once while the previous
    /// heartbeat is still under way.
    ///
    /// A silent node whose row is locked is in a transaction (frozen, or its link to
    /// PostgreSQL black-holed after a statement): its rows are skipped, not waited for. Waiting
    /// held this heartbeat's own row locked, on which this node's stop and the other nodes'
    /// heartbeats then waited, and a heartbeat every 2 s took the pool's every connection:
    /// one node cut off stalled them all for as long as its cut lasted (issue 41, seed 7).
    func heartbeat(now: Int64) async throws(ServerStoreError) -> Beat? {
        guard !heartbeating.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { heartbeating.store(false, ordering: .releasing) }
        let node = nodeName, address = self.address.withLock { $0 }, link = self.link.withLock { $0 }
        return try await store.write("heartbeat of node \(node)") { connection in
            let updated = try connection.execute("UPDATE node SET seen_at = $2 WHERE name = $1", [.text(node), .integer(now)])
            if updated.affectedRows == 0 {
                _ = try connection.execute("""
                    INSERT INTO node(name, started_at, seen_at, address, link) VALUES ($1, $2, $2, $3, $4)
                    ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at, address = excluded.address, link = excluded.link
                    """, [.text(node), .integer(now), .text(address), .text(link)])
                _ = try connection.execute("DELETE FROM presence WHERE node = $1", [.text(node)])
            }
            // The silent nodes this transaction holds (locked): their presence rows and theirs.
            _ = try connection.execute("""
                WITH gone AS (SELECT name FROM node WHERE seen_at < $1 FOR UPDATE SKIP LOCKED),
                     rows AS (DELETE FROM presence WHERE node IN (SELECT name FROM gone))
                DELETE FROM node WHERE name IN (SELECT name FROM gone)
                """, [.integer(now - Self.deadAfter)])
            let peers = try connection.execute("SELECT name, link FROM node WHERE name <> $1 AND seen_at >= $2",
                                               [.text(node), .integer(now - Self.deadAfter)]).rows
            return Beat(rowLost: updated.affectedRows == 0,
                        peers: Dictionary(peers.map { ($0[0].string ?? "", $0[1].string ?? "") }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// What a heartbeat found.
    struct Beat: Sendable {
        /// The node's row was gone (see `heartbeat`).
        var rowLost: Bool
        /// The other live nodes and their link addresses (empty: a node older than links).
        var peers: [String: String]
    }

    /// Records logins accepted here and, with `notify`, tells the other nodes, in one
    /// transaction; returns their sequence numbers (later logins have higher ones), in order.
    /// Without `notify` the caller sends their `loginNotices` over the links (`NodeLinks`).
    ///
    /// A connection has one row: a transaction run again because its connection was lost
    /// during COMMIT (which may have committed) finds the row it wrote and keeps its sequence.
    /// Two rows left the one the connection's close did not remove online for the node's life.
    func joined(_ logins: [(DeviceRegistration, UInt64)], now: Int64, notify: Bool = true) async throws(ServerStoreError) -> [Int64] {
        guard !logins.isEmpty else { return [] }
        let node = nodeName
        let sequences = try await store.write("record \(logins.count) logins") { connection in
            // The rows in one statement, in the logins' order (so their sequences rise with it),
            // then every notice in one: two round trips a batch, not two a login.
            let rows = try connection.execute(prepared: """
                WITH input AS (
                    SELECT * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
                        WITH ORDINALITY AS i(connection, app_key, user_id, device_id, platform, k)),
                written AS (
                    INSERT INTO presence(node, connection, app_key, user_id, device_id, platform, since)
                    SELECT $1, connection, app_key, user_id, device_id, platform, $7 FROM input ORDER BY k
                    ON CONFLICT (node, connection) DO UPDATE SET since = presence.since RETURNING connection, sequence)
                SELECT w.sequence FROM input i JOIN written w ON w.connection = i.connection ORDER BY i.k
                """, [.text(node), PostgresServerStore.integers(logins.map { Int64(bitPattern: $0.1) }),
                      PostgresServerStore.texts(logins.map(\.0.appKey)), PostgresServerStore.texts(logins.map(\.0.userID)),
                      PostgresServerStore.texts(logins.map(\.0.deviceID)), PostgresServerStore.texts(logins.map(\.0.platform.rawValue)),
                      .integer(now)]).rows
            let sequences = rows.map { $0[0].int64 ?? 0 }
            guard sequences.count == logins.count else {
                throw PostgresError(kind: .query, message: "\(sequences.count) presence rows written for \(logins.count) logins")
            }
            if notify {
                try PostgresServerStore.notify(connection, Self.loginNotices(node: node, logins.map(\.0), sequences).map { $0.encoded() })
            }
            return sequences
        }
        if notify { noticesSent.add(logins.count, ordering: .relaxed) }
        return sequences
    }

    /// The notices of logins recorded with these sequence numbers.
    static func loginNotices(node: String, _ logins: [DeviceRegistration], _ sequences: [Int64]) -> [ClusterNotice] {
        zip(logins, sequences).map { login, sequence in
            ClusterNotice(node: node, event: .login(
                sequence: sequence, appKey: login.appKey, userID: login.userID, deviceID: login.deviceID,
                platform: login.platform.rawValue))
        }
    }

    /// Writes again the presence rows of logins the other nodes removed (they took this node
    /// for dead), with their first sequence numbers, so that logins made elsewhere meanwhile
    /// still count as the newer ones. Not announced: these logins are not new.
    func rejoined(_ logins: [(DeviceRegistration, UInt64, Int64)], now: Int64) async throws(ServerStoreError) {
        guard !logins.isEmpty else { return }
        let node = nodeName
        try await store.write("record \(logins.count) logins again") { connection in
            for (login, id, sequence) in logins {
                _ = try connection.execute("""
                    INSERT INTO presence(sequence, node, connection, app_key, user_id, device_id, platform, since)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING
                    """, [.integer(sequence), .text(node), .integer(Int64(bitPattern: id)), .text(login.appKey),
                          .text(login.userID), .text(login.deviceID), .text(login.platform.rawValue), .integer(now)])
            }
        }
    }

    /// Whether the login with this sequence number (on any node) is still online.
    func isPresent(sequence: Int64) async throws(ServerStoreError) -> Bool {
        try await store.read("look up a login") { connection in
            try !connection.execute("SELECT 1 FROM presence WHERE sequence = $1", [.integer(sequence)]).rows.isEmpty
        }
    }

    /// Forgets logins of this node that ended, in one statement.
    func left(sequences: [Int64]) async throws(ServerStoreError) {
        guard !sequences.isEmpty else { return }
        try await store.write("record \(sequences.count) logouts") { connection in
            _ = try connection.execute(prepared: "DELETE FROM presence WHERE sequence = ANY($1::bigint[])",
                                       [PostgresServerStore.integers(sequences)])
        }
    }

    /// The devices of these users online on other live nodes, per user in the order asked.
    func onlineElsewhere(_ users: [(appKey: String, userID: String)], now: Int64) async throws(ServerStoreError) -> [[RemoteDevice]] {
        guard !users.isEmpty else { return [] }
        let node = nodeName
        let (apps, ids) = (PostgresTextArray.literal(users.map(\.appKey)), PostgresTextArray.literal(users.map(\.userID)))
        return try await store.read("read who is online elsewhere") { connection in
            let rows = try connection.execute("""
                SELECT p.app_key || chr(1) || p.user_id, p.device_id, p.platform, p.sequence
                FROM unnest($1::text[], $2::text[]) AS k(app_key, user_id)
                JOIN presence p ON p.app_key = k.app_key AND p.user_id = k.user_id
                JOIN node n ON n.name = p.node
                WHERE p.node <> $3 AND n.seen_at >= $4
                """, [.text(apps), .text(ids), .text(node), .integer(now - Self.deadAfter)]).rows
            var found: [String: [RemoteDevice]] = [:]
            for row in rows {
                found[row[0].string ?? "", default: []].append(
                    RemoteDevice(deviceID: row[1].string ?? "", platform: row[2].string ?? "", sequence: row[3].int64 ?? 0))
            }
            return users.map { found[$0.appKey + "\u{1}" + $0.userID] ?? [] }
        }
    }

    /// Tells every other node (an API action to carry out on their connections too).
    func announce(_ event: ClusterEvent) async throws(ServerStoreError) {
        let notice = ClusterNotice(node: nodeName, event: event)
        try await store.read("notify the other nodes") { connection in try PostgresServerStore.notify(connection, [notice.encoded()]) }
        noticesSent.add(1, ordering: .relaxed)
    }
}
