import IMJSON
import IMTimeline

/// A bench's figures as pictures in one self-contained HTML page (`--report FILE.html`):
/// latency distribution, sessions connected over time, messages/s and p50/p99 per second,
/// failures by code, then the text summary and the JSON result the pictures were drawn from.
struct BenchReportPage {
    let report: any BenchReport
    let command: String

    init(_ report: any BenchReport, command: String) {
        self.report = report
        self.command = command
    }

    var html: String {
        let figures = report.figures
        var body = "<pre class=\"summary\">\(XMLText.escaped(report.lines.joined(separator: "\n")))</pre>\n"
        body += section("Latency distribution", figures.latency.map { buckets in
            SVGChart(id: "latency", title: figures.latencyName).bars(
                labels: buckets.map { "\(SVGChart.text($0.fromMs))-\(SVGChart.text($0.toMs))" }, values: buckets.map { Double($0.count) },
                xTitle: "milliseconds", yTitle: "samples")
        })
        body += section("Sessions connected over time", figures.connected.map { points in
            SVGChart(id: "connected", title: "sessions connected").lines(
                x: points.map(\.seconds), series: [.init(name: "connected", color: "#2e9e44", values: points.map { Double($0.connected) })],
                xTitle: "seconds", yTitle: "sessions")
        })
        body += section("Messages per second", figures.perSecond.map { seconds in
            SVGChart(id: "messages", title: "messages received per second").lines(
                x: seconds.map { Double($0.second) }, series: [.init(name: "messages/s", color: "#3b7dd8", values: seconds.map { Double($0.messages) })],
                xTitle: "second", yTitle: "messages")
        })
        body += section("Latency per second", figures.perSecond.map { seconds in
            SVGChart(id: "latency-per-second", title: "message latency per second").lines(
                x: seconds.map { Double($0.second) },
                series: [.init(name: "p50 ms", color: "#2e9e44", values: seconds.map(\.p50Ms)),
                         .init(name: "p99 ms", color: "#d6336c", values: seconds.map(\.p99Ms))],
                xTitle: "second", yTitle: "milliseconds")
        })
        body += section("Failures by code", figures.failures.map { failures in
            SVGChart(id: "failures", title: "failures by code").bars(
                labels: failures.map(\.code), values: failures.map { Double($0.count) }, xTitle: "code", yTitle: "failures")
        })
        // `<\/` keeps the JSON from closing the script element; JSON reads it as `</`.
        let json = report.json.jsonText
        body += "<h2>JSON result</h2>\n<script type=\"application/json\" id=\"result\">\(json.replacingOccurrences(of: "</", with: "<\\/"))</script>\n"
        body += "<pre class=\"json\">\(XMLText.escaped(json))</pre>\n"
        return HTMLPage(title: command, body: body).html
    }

    private func section(_ title: String, _ chart: String?) -> String {
        "<h2>\(XMLText.escaped(title))</h2>\n" + (chart ?? "<p class=\"absent\">not measured by this bench</p>\n")
    }
}
