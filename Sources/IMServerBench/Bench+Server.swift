import IMBench

extension Bench {
    /// `imsh bench login` and `imsh bench server`, which measure a server with bare MQTT clients
    /// rather than the engine's sessions, for imsh to add to the benches of IMBench (which
    /// cannot name them: this module builds on that one).
    package static let server: [BenchEntry] = [
        (LoginBench.self, "--connections N [--window W] [--hold S] [options]"),
        (ServerBench.self, "--target mqtt://HOST[:PORT] [--pairs N] [--rate R] [options]"),
    ]
}
