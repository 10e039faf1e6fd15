import IMHTTP
import IMTransport
import Testing
import TestSupport

extension TestServer {
    /// The loop the tests' clients of the metrics port run on.
    static let scrapeLoop = try! EventLoop(name: "metrics-client")

    /// Sends `request` on a fresh connection to the metrics port and returns the answer.
    func metricsExchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let client = try await APITestClient.connect(port: metricsPort, on: Self.scrapeLoop)
        defer { client.close() }
        var reader = client.reader()
        try await client.send(request)
        return try await reader.next()
    }

    /// The samples of a scrape, by name with labels as written (`name{a="b"}`).
    func scrape() async throws -> [String: Double] {
        let response = try await metricsExchange(HTTPRequest(method: "GET", target: "/metrics", headers: ["Host": "127.0.0.1"]))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        var samples: [String: Double] = [:]
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = Double(line[line.index(after: space)...])
        }
        return samples
    }
}
