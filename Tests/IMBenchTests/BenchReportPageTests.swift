import Foundation
import IMJSON
import TestSupport
import Testing

/// `imsh bench ... --report FILE.html`: the figures in the JSON result, the same numbers in the
/// page, and the page drawn by headless Chromium.
@Suite(.serialized) struct BenchReportPageTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "imsh-bench-report-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }()

    func objects(_ value: JSONValue?) -> [JSONObject] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.objectValue)
    }

    /// The JSON result the page embeds, as the bench printed it.
    func embeddedResult(_ page: String) throws -> String {
        let start = try #require(page.range(of: "<script type=\"application/json\" id=\"result\">"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "<\\/", with: "</")
    }

    func nonEmptyBuckets(_ figures: JSONObject) -> Int {
        objects(figures["latencyHistogram"]?.objectValue?["buckets"]).filter { ($0.int("count") ?? 0) > 0 }.count
    }

    @Test func messagesReportDrawsEveryFigureFromTheJSONNumbers() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/messages.html"
        let run = try await BenchProcess.run(["messages", "--pairs", "5", "--rate", "100", "--duration", "2", "--json", "--report", file])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        let figures = try #require(result["figures"]?.objectValue)
        let seconds = objects(figures["perSecond"])
        #expect(seconds.reduce(0) { $0 + ($1.int("messages") ?? 0) } == result.int("received"))
        #expect(seconds.map { $0.int("second") } == (0..<Int64(seconds.count)).map { $0 })
        for second in seconds where (second.int("messages") ?? 0) > 0 {
            #expect((second.number("p50Ms") ?? -1) >= 0 && (second.number("p99Ms") ?? -1) >= (second.number("p50Ms") ?? 0))
        }
        let buckets = objects(figures["latencyHistogram"]?.objectValue?["buckets"])
        #expect(buckets.reduce(0) { $0 + ($1.int("count") ?? 0) } == result["latency"]?.objectValue?.int("count"))
        #expect(figures["failures"] == .object(JSONObject([])))

        let page = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try embeddedResult(page) == run.stdout.trimmingCharacters(in: .newlines))
        #expect(!page.contains("src=") && !page.contains("<link rel=\"stylesheet\""))
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)

        let visit = try await HeadlessChromium.visit(file, width: 1000, height: 2200)
        #expect(visit.errors.isEmpty, "\(visit.console)")
        let points = seconds.count + seconds.filter { $0.number("p50Ms") != nil }.count + seconds.filter { $0.number("p99Ms") != nil }.count
        let expected = "imsh-page lanes=0 spans=0 charts=4 marks=0 points=\(points) bars=\(nonEmptyBuckets(figures))"
        #expect(visit.console.contains(expected), "\(visit.console)")
        // Bar blue, p50 green, p99 red.
        for color: UInt32 in [0x3b7dd8, 0x2e9e44, 0xd6336c] {
            #expect(visit.colors.contains(color), "no \(String(color, radix: 16)) in \(visit.screenshot)")
        }
    }

    @Test func connectReportShowsSessionsOverTimeAndTheLatencyDistribution() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/connect.html"
        let run = try await BenchProcess.run(["connect", "--accounts", "20", "--json", "--report", file])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        let figures = try #require(result["figures"]?.objectValue)
        let points = objects(figures["connectedOverTime"])
        #expect(points.last?.int("connected") == 20 && points.first?.number("seconds") == 0)
        let counts = points.compactMap { $0.int("connected") }
        #expect(counts == counts.sorted())
        #expect(nonEmptyBuckets(figures) >= 1 && figures["perSecond"] == nil)

        let visit = try await HeadlessChromium.visit(file, width: 1000, height: 1600)
        #expect(visit.errors.isEmpty, "\(visit.console)")
        #expect(visit.console.contains("imsh-page lanes=0 spans=0 charts=3 marks=0 points=\(points.count) bars=\(nonEmptyBuckets(figures))"),
                "\(visit.console)")
        #expect(visit.colors.contains(0x3b7dd8) && visit.colors.contains(0x2e9e44))
        // In text mode the summary names the file.
        let text = try await BenchProcess.run(["connect", "--accounts", "3", "--report", file])
        #expect(text.stdout.hasSuffix("report       \(file)\n"))
    }

    @Test func reconnectReportShowsTheSessionsComingBack() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = "\(directory)/reconnect.html"
        let run = try await BenchProcess.run(["reconnect", "--accounts", "10", "--down", "0.5", "--json", "--report", file])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        let points = objects(try #require(result["figures"]?.objectValue)["connectedOverTime"])
        #expect(points.last?.int("connected") == result.int("reconnected") && points.count >= 2)
        let visit = try await HeadlessChromium.visit(file, width: 1000, height: 1200)
        #expect(visit.errors.isEmpty, "\(visit.console)")
        #expect(visit.console.contains("imsh-page lanes=0 spans=0 charts=1 marks=0 points=\(points.count) bars=0"), "\(visit.console)")
        let page = try String(contentsOfFile: file, encoding: .utf8)
        #expect(page.components(separatedBy: "not measured by this bench").count - 1 == 4)
    }

    @Test func aReportIsNotWrittenThroughASymbolicLink() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = "\(directory)/target", link = "\(directory)/link.html"
        _ = FileManager.default.createFile(atPath: target, contents: Data("keep".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let run = try await BenchProcess.run(["connect", "--accounts", "2", "--report", link])
        #expect(run.status == 1 && run.stderr.contains("cannot write \(link): it is a symbolic link"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }
}
