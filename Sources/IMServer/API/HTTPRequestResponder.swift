import IMHTTP

/// What an `APIConnection` hands its requests to: the server API (`APIResponder`), or the
/// metrics and health endpoints (`MetricsResponder`). One HTTP connection handling serves
/// both, with the same limits, timeouts and per-address cap.
protocol HTTPRequestResponder: Sendable {
    /// The answer to give at once on the loop (an unknown path, a method not taken), or nil
    /// when the request goes on to `respond(to:)`.
    func immediateAnswer(to request: HTTPRequest) -> HTTPResponse?
    /// The answer, which may wait for the server.
    func respond(to request: HTTPRequest) async -> HTTPResponse
}
