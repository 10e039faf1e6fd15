import IMHTTP

extension APIResponder: HTTPRequestResponder {
    func immediateAnswer(to request: HTTPRequest) -> HTTPResponse? {
        guard case .failure(let error) = route(request) else { return nil }
        tally.count(path: request.path, status: error.response.status.rawValue)
        return error.response
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let response: HTTPResponse
        switch route(request) {
        case .failure(let error): response = error.response
        case .success(let endpoint): response = await respond(to: request, at: endpoint)
        }
        tally.count(path: request.path, status: response.status.rawValue)
        return response
    }
}
