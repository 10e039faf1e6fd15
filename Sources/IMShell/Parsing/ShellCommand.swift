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

    /// The command's name as typed, and as the `command` member of a JSON result.
    public var name: String {
        switch self {
        case .help: return "help"
        case .profiles: return "profiles"
        case .use: return "use"
        case .accounts: return "accounts"
        case .connect: return "connect"
        case .disconnect: return "disconnect"
        case .kick: return "kick"
        case .block: return "block"
        case .unblock: return "unblock"
        case .expireToken: return "expire-token"
        case .deactivate: return "deactivate"
        case .reactivate: return "reactivate"
        case .status: return "status"
        case .send: return "send"
        case .history: return "history"
        case .net: return "net"
        case .background: return "background"
        case .foreground: return "foreground"
        case .log: return "log"
        case .timeline: return "timeline"
        case .wait: return "wait"
        case .expect: return "expect"
        case .server: return "server"
        case .link: return "link"
        case .damageDatabase: return "database"
        case .require: return "require"
        case .skip: return "skip"
        case .sleep: return "sleep"
        case .quit: return "quit"
        }
    }
}
