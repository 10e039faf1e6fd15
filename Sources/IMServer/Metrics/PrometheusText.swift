/// The Prometheus text exposition format, version 0.0.4: families with `# HELP` and `# TYPE`,
/// then their samples.
///
/// Names are the caller's (constants of `ServerMetrics`); label values and help text are
/// escaped here, so a reason or path with a quote or newline cannot break the exposition.
struct PrometheusText {
    enum Kind: String {
        case counter, gauge, histogram
    }

    /// The media type a scrape is answered with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// Starts a family: its help line and type.
    mutating func family(_ name: String, _ kind: Kind, _ help: String) {
        let escaped = help.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
        text += "# HELP \(name) \(escaped)\n# TYPE \(name) \(kind.rawValue)\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
        text += name + Self.render(labels) + " " + Self.format(value) + "\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Int) {
        text += name + Self.render(labels) + " " + String(value) + "\n"
    }

    /// A family with one sample.
    mutating func single(_ name: String, _ kind: Kind, _ help: String, _ value: Int) {
        family(name, kind, help)
        sample(name, [], value)
    }

    /// A histogram family: its cumulative buckets, sum and count.
    mutating func histogram(_ name: String, _ help: String, _ histogram: MetricsHistogram) {
        family(name, .histogram, help)
        for (bound, count) in histogram.cumulative {
            sample(name + "_bucket", [("le", bound.map(Self.format) ?? "+Inf")], count)
        }
        sample(name + "_sum", [], histogram.sum)
        sample(name + "_count", [], histogram.count)
    }

    private static func render(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        let pairs = labels.map { name, value in
            let escaped = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
            return "\(name)=\"\(escaped)\""
        }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// A float as Go's ParseFloat reads it: integral values without an exponent where short.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
