import IMStore
import IMProtocol
import MQTT

/// Logins waiting for the store: first for their users' standing, then for their devices'
/// registration. While one store call is under way the next logins gather, and go together
/// in the following call: under a burst of logins the store sees a few large transactions
/// instead of two per login, and a lone login waits for nothing.
struct LoginBatches {
    struct Pending {
        let broker: BrokerConnection
        let connect: Connect
        let claims: TokenClaims
    }

    var standing = PendingBatch<Pending>()
    /// Users blocked or deactivated while the standing batch under way was being read: that
    /// read may predate the change (PostgreSQL's pool runs it beside the write), and the
    /// change's sweep of online devices could not see those logins, so they are read again.
    /// (A kick sweeps the same way and changes no standing: its users' logins are read again
    /// and admitted; a kick ends the connections there are, not the logins under way.)
    var changedDuringRead: Set<UserKey> = []
    var registrations = PendingBatch<Pending>()
}
