import IMJSON

/// The result of one bench run, for people and for scripts.
package protocol BenchReport: Sendable {
    /// One JSON object (`--json`).
    var json: JSONValue { get }
    /// Aligned lines of text.
    var lines: [String] { get }
    /// The series for `--report`, also in `json` (member `figures`).
    var figures: BenchFigures { get }
    /// Whether the run met its own conditions (all connected, nothing lost); the exit status follows.
    var succeeded: Bool { get }
}
