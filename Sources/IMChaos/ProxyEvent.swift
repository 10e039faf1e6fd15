/// What the proxy reports as it works: each fault injected, each cut made.
public enum ProxyEvent: Sendable, Equatable, CustomStringConvertible {
    case fault(FaultEvent)
    case cut(CutEvent)

    public var description: String {
        switch self {
        case .fault(let event): return event.description
        case .cut(let event): return event.description
        }
    }
}

/// One fault injected, on command or at random.
public struct FaultEvent: Sendable, Equatable, CustomStringConvertible {
    /// Who asked for the fault.
    public enum Origin: String, Sendable {
        case command
        case random
    }

    /// The connection it hit; nil for every connection (and those to come).
    public var connection: ProxyConnectionID?
    public var fault: Fault
    public var origin: Origin

    public init(connection: ProxyConnectionID?, fault: Fault, origin: Origin) {
        self.connection = connection
        self.fault = fault
        self.origin = origin
    }

    /// `fault 12 delay 120 (random)`, `fault all blackhole (command)`.
    public var description: String {
        "fault \(connection?.description ?? "all") \(fault) (\(origin.rawValue))"
    }
}

/// A cut made: how much of which packet crossed before both sides closed.
public struct CutEvent: Sendable, Equatable, CustomStringConvertible {
    public var connection: ProxyConnectionID
    /// Whether the packet went from the client toward the server.
    public var towardServer: Bool
    /// The packet's type name (`PUBLISH`), or the first byte in hex when it names no MQTT packet.
    public var packet: String
    /// The bytes of the packet that crossed.
    public var forwarded: Int
    /// The packet's whole length, when its fixed header had arrived.
    public var length: Int?

    public init(connection: ProxyConnectionID, towardServer: Bool, packet: String, forwarded: Int, length: Int?) {
        self.connection = connection
        self.towardServer = towardServer
        self.packet = packet
        self.forwarded = forwarded
        self.length = length
    }

    /// `cut 12 PUBLISH to server after 37 of 74 bytes`.
    public var description: String {
        let whole = length.map { " of \($0)" } ?? ""
        return "cut \(connection) \(packet) to \(towardServer ? "server" : "client") after \(forwarded)\(whole) bytes"
    }
}
