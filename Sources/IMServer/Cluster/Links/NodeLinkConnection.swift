import IMTransport

/// One link between two nodes, either way: its handshake, then lines of JSON (`NodeLinks`).
///
/// A line is a `ClusterNotice` from the side that accepted to the side that dialed; an empty
/// line, either way, says the sender is alive (`NodeLinks.tick`). Runs on the broker's loop.
final class NodeLinkConnection: ConnectionHandler {
    /// The longest line taken: a notice carries one message, at most the server's largest packet.
    static let longestLine = 1 << 20

    let connection: Connection
    private unowned let links: NodeLinks
    private(set) var handshake: NodeLinkHandshake
    /// Bytes read after the last whole line.
    private var partial: [UInt8] = []
    /// When the connection was made: its handshake must end within `NodeLinks.silenceLimit`.
    let opened = ContinuousClock.now
    private(set) var lastReceived = ContinuousClock.now
    private(set) var lastSent = ContinuousClock.now
    /// Whether this side dialed: it takes notices; the accepting side sends them.
    var dialed: Bool { handshake.expected != nil }
    var peer: String? { handshake.peer }
    var isLinked: Bool { handshake.step == .done }

    init(connection: Connection, links: NodeLinks, handshake: NodeLinkHandshake) {
        self.connection = connection
        self.links = links
        self.handshake = handshake
        connection.start(self)
        for line in handshake.opening { send(line: Array(line.utf8)) }
    }

    /// Queues one line (the newline added); a link that cannot take it closes (see `NodeLinks`).
    func send(line: [UInt8]) {
        lastSent = .now
        _ = try? connection.send(line + [0x0A])
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        lastReceived = .now
        var start = partial.count
        partial += frame
        var lineStart = 0
        while let end = partial[start...].firstIndex(of: 0x0A) {
            let line = Array(partial[lineStart..<end])
            lineStart = end + 1
            start = lineStart
            guard receive(line) else { return }
        }
        partial.removeFirst(lineStart)
        if partial.count > Self.longestLine {
            links.refuse(self, NodeLinkError(reason: "a line longer than \(Self.longestLine) bytes"))
        }
    }

    /// Handles one line; false once the link is closing.
    private func receive(_ line: [UInt8]) -> Bool {
        guard isLinked else {
            do throws(NodeLinkError) {
                for reply in try handshake.receive(line) { send(line: Array(reply.utf8)) }
                if isLinked { links.linked(self) }
                return true
            } catch {
                links.refuse(self, error)
                return false
            }
        }
        guard !line.isEmpty else { return true }
        guard dialed else {
            links.refuse(self, NodeLinkError(reason: "node \(peer ?? "?") sent a notice to the side that sends them"))
            return false
        }
        links.received(line, from: self)
        return connection.isOpen
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        links.closed(self)
    }
}
