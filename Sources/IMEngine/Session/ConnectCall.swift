/// One `connect` call's callbacks: database opened (at most once), then completion (exactly once).
final class ConnectCall {
    typealias DatabaseOpened = @Sendable (_ isRecreated: Bool, _ error: EngineError?) -> Void
    typealias Completion = @Sendable (_ userID: String?, _ error: EngineError?) -> Void

    private let callbacks: CallbackExecutor
    private var databaseOpened: DatabaseOpened?
    private var completion: Completion?

    init(callbacks: CallbackExecutor, databaseOpened: DatabaseOpened?, completion: @escaping Completion) {
        self.callbacks = callbacks
        self.databaseOpened = databaseOpened
        self.completion = completion
    }

    func reportDatabase(isRecreated: Bool, error: EngineError?) {
        guard let handler = databaseOpened.take() else { return }
        callbacks.run { handler(isRecreated, error) }
    }

    /// Runs the completion; a `reportDatabase` after this does nothing, so order holds.
    func finish(_ result: Result<String, EngineError>) {
        databaseOpened = nil
        guard let handler = completion.take() else { return }
        switch result {
        case .success(let userID): callbacks.run { handler(userID, nil) }
        case .failure(let error): callbacks.run { handler(nil, error) }
        }
    }
}

extension Optional {
    /// Returns the value and leaves nil behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
