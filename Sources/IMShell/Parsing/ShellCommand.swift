import IMEngine
import IMProfiles
import IMTimeline

/// One shell command, parsed and checked for form; `CommandExecutor` runs it.
public enum ShellCommand: Equatable, Sendable {
    case help(topic: String?)
    case profiles
    case use(profile: String)
    case accounts(profile: String?)
    /// `wait` false (`--no-wait`): answer once every call is started; events tell the rest.
    case connect(AccountSelection, timeout: Double?, kickEnable: Bool, wait: Bool = true)
    case disconnect(AccountSelection, disablePush: Bool)
    case kick(AccountReference)
    case block(AccountReference, minutes: Int)
    case unblock(AccountReference)
    case expireToken(AccountReference)
    case deactivate(AccountReference)
    case reactivate(AccountReference)
    case status(AccountReference?)
    case send(AccountReference, to: String, text: String)
    case history(AccountReference, peer: String?, limit: Int)
    case net(AccountSelection, NetworkEvent)
    case background(AccountSelection, grace: Double?)
    case foreground(AccountSelection)
    case log(AccountReference?, limit: Int)
    /// The accounts named, or every account of a profile (nil: the active one).
    case timeline(AccountSelection?, TimelineRequest)
    case wait(AccountSelection, ConnectionStatus, timeout: Double)
    /// An assertion with a deadline: a failed one fails the command and says what came instead.
    case expect(AccountReference, Expectation)
    /// Stops, starts or crashes the embedded server.
    case server(ServerAction)
    /// Puts a fault on the account's link, through a proxy in front of it.
    case link(AccountReference, LinkFault)
    /// Ends the account's session and damages its local database file, for its next connect to find.
    case damageDatabase(AccountReference)
    /// Ends the script as skipped unless the active profile meets the requirement.
    case require(Requirement)
    /// Ends the script here, counted as skipped (`imsh test`), for the reason given.
    case skip(reason: String)
    case sleep(seconds: Double)
    case quit

    /// The table entry that parses the command: its name, help and options.
    public var definition: CommandDefinition {
        switch self {
        case .help: CommandCatalog.help
        case .profiles: CommandCatalog.profiles
        case .use: CommandCatalog.use
        case .accounts: CommandCatalog.accounts
        case .connect: CommandCatalog.connect
        case .disconnect: CommandCatalog.disconnect
        case .kick: CommandCatalog.kick
        case .block: CommandCatalog.block
        case .unblock: CommandCatalog.unblock
        case .expireToken: CommandCatalog.expireToken
        case .deactivate: CommandCatalog.deactivate
        case .reactivate: CommandCatalog.reactivate
        case .status: CommandCatalog.status
        case .send: CommandCatalog.send
        case .history: CommandCatalog.history
        case .net: CommandCatalog.net
        case .background: CommandCatalog.background
        case .foreground: CommandCatalog.foreground
        case .log: CommandCatalog.log
        case .timeline: CommandCatalog.timeline
        case .wait: CommandCatalog.wait
        case .expect: CommandCatalog.expect
        case .server: CommandCatalog.server
        case .link: CommandCatalog.link
        case .damageDatabase: CommandCatalog.database
        case .require: CommandCatalog.require
        case .skip: CommandCatalog.skip
        case .sleep: CommandCatalog.sleep
        case .quit: CommandCatalog.quit
        }
    }

    /// The command's name as typed, and as the `command` member of a JSON result.
    public var name: String { definition.name }
}
