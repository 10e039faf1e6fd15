import Foundation
import IMHTTP
import IMHTTPClient
import IMJSON
import IMProcess
import IMTransport
import TestSupport

/// A stock Prometheus (Debian package) on a free loopback port, scraping one target every
/// second, with its own storage directory; queried through its HTTP API. Killed when released.
final class StockPrometheus: Sendable {
    static let loop = try! EventLoop(name: "prometheus-client")

    let port: UInt16
    private let process: ChildProcess

    /// Starts Prometheus in `directory`, scraping `target` (`HOST:PORT`) at `/metrics`.
    init(directory: String, target: String) throws {
        port = try LoopbackPort.free()
        let config = directory + "/prometheus.yml"
        try """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: imserver
            static_configs:
              - targets: ['\(target)']
        """.write(toFile: config, atomically: true, encoding: .utf8)
        process = try ChildProcess.spawn(
            "/usr/bin/prometheus",
            ["--config.file=\(config)", "--storage.tsdb.path=\(directory)/data", "--web.listen-address=127.0.0.1:\(port)"],
            stdout: .null, stderr: .null)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.wait()
    }

    /// The first value of an instant query's result vector, or nil when it is empty or Prometheus does not answer yet.
    func value(of query: String) async -> String? {
        let escaped = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        guard let url = try? HTTPURL(parsing: "http://127.0.0.1:\(port)/api/v1/query?query=\(escaped)"),
              let body = try? await HTTPClient.get(url, on: Self.loop, timeout: .seconds(2), bodyLimit: 1 << 20),
              case .object(let root)? = try? JSONValue(parsing: body),
              case .object(let data)? = root["data"], case .array(let result)? = data["result"],
              case .object(let first)? = result.first, case .array(let pair)? = first["value"], pair.count == 2,
              case .string(let value) = pair[1] else { return nil }
        return value
    }
}
