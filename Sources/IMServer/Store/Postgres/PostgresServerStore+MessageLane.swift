import IMPostgres
import IMTransport

extension PostgresServerStore: MessageLaneStore {
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        PostgresMessageLane(store: self, loop: loop)
    }

    /// Runs `batch` on one pooled connection. A connection lost on the way is replaced and the
    /// batch goes on from the step it was at, up to one try per connection and a fresh one (as
    /// `retryingLostConnections`: after a restart of PostgreSQL each idle connection fails once).
    func run(_ batch: PostgresLaneBatch) async -> PostgresLaneBatch.Outcome {
        var outcome = batch.unanswered
        let node = nodeName, location = self.location
        var failure: any Error = PostgresError(kind: .connection, message: "no connection was tried")
        for _ in 0...connections {
            let sofar = outcome
            do {
                let (next, lost) = try await pool.run { connection in
                    var next = sofar
                    let lost = batch.run(on: connection, node: node, location: location, into: &next)
                    return (next, lost)
                }
                outcome = next
                guard let lost else { return outcome }
                failure = lost
            } catch {
                failure = error
            }
        }
        batch.fail(&outcome, with: Self.storeError(failure, operation: "run \(batch.calls) message calls", location: location))
        return outcome
    }
}
