import IMChaos
import IMCommandLine

/// One line of standard input.
enum ConsoleCommand: Equatable {
    case list
    /// A fault on one connection, or on all when the id is nil.
    case fault(ProxyConnectionID?, Fault)
    case random(Bool)
    case help
    case quit

    /// The command on `line`; nil for a blank line.
    static func parse(_ line: String) throws(UsageError) -> ConsoleCommand? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else { return nil }
        let arguments = Array(words.dropFirst())
        switch (name, arguments.count) {
        case ("list", 0): return .list
        case ("help", 0): return .help
        case ("quit", 0): return .quit
        case ("random", 1) where arguments[0] == "on" || arguments[0] == "off": return .random(arguments[0] == "on")
        case ("random", _): throw UsageError("random wants on or off")
        case ("fault", 2...3): return try fault(arguments)
        case ("fault", _): throw UsageError("fault wants all or an id, then a fault (see 'help')")
        case ("list", _), ("help", _), ("quit", _): throw UsageError("\(name) takes no arguments")
        default: throw UsageError("unknown command '\(name)' (see 'help')")
        }
    }

    private static func fault(_ arguments: [String]) throws(UsageError) -> ConsoleCommand {
        var target: ProxyConnectionID?
        if arguments[0] != "all" {
            guard let id = Int(arguments[0]), id > 0 else {
                throw UsageError("'\(arguments[0])' is not all or a connection id (see 'list')")
            }
            target = ProxyConnectionID(id)
        }
        let value = arguments.count == 3 ? Int(arguments[2]) : nil
        switch (arguments[1], arguments.count) {
        case ("pass", 2): return .fault(target, .pass)
        case ("blackhole", 2): return .fault(target, .blackhole)
        case ("close", 2): return .fault(target, .close)
        case ("cut", 2): return .fault(target, .cut)
        case ("delay", 3):
            guard let value, (0...600_000).contains(value) else { throw UsageError("delay wants milliseconds from 0 to 600000") }
            return .fault(target, .delay(.milliseconds(value)))
        case ("throttle", 3):
            guard let value, value > 0 else { throw UsageError("throttle wants bytes a second, at least 1") }
            return .fault(target, .throttle(bytesPerSecond: value))
        case ("loss", 3):
            guard let value, (0...100).contains(value) else { throw UsageError("loss wants a percentage from 0 to 100") }
            return .fault(target, .loss(percent: value))
        case ("delay", _), ("throttle", _), ("loss", _):
            throw UsageError("\(arguments[1]) wants a number: delay MS, throttle BYTES-PER-SECOND, loss PERCENT")
        default:
            throw UsageError("unknown fault '\(arguments[1...].joined(separator: " "))': use pass, blackhole, close, cut, delay MS, throttle BPS or loss PERCENT")
        }
    }
}
