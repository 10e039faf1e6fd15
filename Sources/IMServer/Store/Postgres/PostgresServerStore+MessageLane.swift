import IMPostgres
import IMTransport

extension PostgresServerStore: MessageLaneStore {
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        PostgresMessageLane(store: self, loop: loop)
    }

    /// Runs `batch` on one pooled connection and hands the outcome to `then` on a pool thread.
    /// A connection lost on the way is replaced and the batch goes on from the step it was at,
    /// up to one try per connection and a fresh one (as `retryingLostConnections`: after a
    /// restart of PostgreSQL each idle connection fails once).
    func run(_ batch: PostgresLaneBatch, then: @escaping @Sendable (PostgresLaneBatch.Outcome) -> Void) {
        run(batch, from: batch.unanswered, attempt: 1, then: then)
    }

    private func run(
        _ batch: PostgresLaneBatch, from sofar: PostgresLaneBatch.Outcome, attempt: Int,
        then: @escaping @Sendable (PostgresLaneBatch.Outcome) -> Void
    ) {
        let node = nodeName, location = self.location
        pool.submit({ connection in
            var next = sofar
            let lost = batch.run(on: connection, node: node, location: location, into: &next)
            return (next, lost)
        }, then: { result in
            var outcome = sofar
            let failure: any Error
            switch result {
            case .success((let next, nil)): return then(next)
            case .success((let next, let lost?)): (outcome, failure) = (next, lost)
            case .failure(let error): failure = error
            }
            guard attempt > self.connections else { return self.run(batch, from: outcome, attempt: attempt + 1, then: then) }
            batch.fail(&outcome, with: Self.storeError(failure, operation: "run \(batch.calls) message calls", location: location))
            then(outcome)
        })
    }
}
