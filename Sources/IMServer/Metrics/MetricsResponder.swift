import IMHTTP

/// The metrics listener's endpoints: `GET /metrics` (Prometheus text), `GET /healthz` (200
/// while the process serves), `GET /readyz` (200 while it takes logins, else 503 and why).
///
/// Read-only by construction: every other path is 404, every method but GET and HEAD 405,
/// and bodies are refused by the connection's limit (413), so nothing on this port can
/// change the server.
struct MetricsResponder: HTTPRequestResponder {
    let metrics: ServerMetrics

    static let paths: Set<String> = ["/metrics", "/healthz", "/readyz"]

    func immediateAnswer(to request: HTTPRequest) -> HTTPResponse? {
        guard Self.paths.contains(request.path) else {
            return Self.text(.notFound, "no such path: \(request.path) (try /metrics, /healthz or /readyz)\n")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Self.text(.methodNotAllowed, "\(request.path) takes GET or HEAD, not \(request.method)\n")
            response.headers.add(name: "Allow", value: "GET, HEAD")
            return response
        }
        return request.path == "/healthz" ? Self.text(.ok, "ok\n") : nil
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/readyz" {
            guard let reason = await metrics.notReadyReason() else { return Self.text(.ok, "ready\n") }
            return Self.text(.serviceUnavailable, reason + "\n")
        }
        guard let exposition = await metrics.exposition() else {
            return Self.text(.serviceUnavailable, "the server is stopping\n")
        }
        return HTTPResponse(status: .ok, headers: ["Content-Type": PrometheusText.contentType], body: Array(exposition.utf8))
    }

    private static func text(_ status: HTTPStatus, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }
}
