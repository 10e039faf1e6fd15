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
    var registrations = PendingBatch<Pending>()
}
