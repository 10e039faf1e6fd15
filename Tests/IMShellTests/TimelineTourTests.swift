import Foundation
import IMJSON
import TestSupport
import Testing

/// The README tour through the real binary (alice's two mobile devices kicking each other, bob
/// banned and let back in), then `timeline` in a later run, from the databases alone: each
/// event in order, as JSON, as text, and as an HTML page a real browser draws.
@Suite(.serialized) struct TimelineTourTests {
    static let tour = """
        connect alice-phone bob-phone
        connect alice-tablet
        wait alice-phone kickedOfflineByOtherClient --timeout 10
        connect alice-phone
        wait alice-tablet kickedOfflineByOtherClient --timeout 10
        block bob-phone 5
        wait bob-phone disconnException --timeout 10
        unblock bob-phone
        connect bob-phone
        """

    /// (account, mark kind, code) of every kick and error, in time order.
    static func events(_ lanes: [JSONObject]) -> [String] {
        var all: [(Int64, Int, String)] = []
        for (index, lane) in lanes.enumerated() {
            for mark in lane.objects("marks") where mark.string("kind") != "attempt" {
                let code = mark["code"]?.integerValue.map(String.init) ?? "-"
                all.append((mark["at"]?.integerValue ?? 0, index, "\(lane.string("account") ?? "?") \(mark.string("kind") ?? "?") \(code)"))
            }
        }
        return all.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    static func spanKinds(_ lane: JSONObject) -> [String] { lane.objects("spans").compactMap { $0.string("kind") } }

    @Test func theTourShowsEachEventInOrderAfterTheFact() async throws {
        let sandbox = Sandbox()
        let tour = try await sandbox.json(Self.tour.replacingOccurrences(of: "\n", with: "; "))
        #expect(tour.status == 0, "\(tour.stdout)\n\(tour.stderr)")

        // A later run, with no session: the databases on disk are all there is.
        let svg = "\(sandbox.root)/tour.svg", html = "\(sandbox.root)/tour.html"
        let run = try await sandbox.json("timeline all --svg \(svg) --html \(html)")
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.result("timeline"))
        let lanes = result.objects("lanes")
        #expect(lanes.compactMap { $0.string("account") } == ["dev/alice-phone", "dev/alice-tablet", "dev/alice-laptop", "dev/bob-phone"])
        #expect(Self.events(lanes) == [
            "dev/alice-phone kick 31010", "dev/alice-tablet kick 31010", "dev/bob-phone error 31009",
        ])
        #expect(Self.spanKinds(lanes[0]) == ["connecting", "connected", "kicked", "connecting", "connected", "ended"])
        #expect(Self.spanKinds(lanes[1]) == ["connecting", "connected", "kicked"])
        #expect(Self.spanKinds(lanes[2]).isEmpty)
        // Banned, then connected again after the unblock; the tour's end signs it out.
        #expect(Self.spanKinds(lanes[3]) == ["connecting", "connected", "ended", "connecting", "connected", "ended"])
        #expect(lanes[3].objects("spans")[2]["status"] == 16 && lanes[3].objects("spans")[5].string("statusName") == "signOut")
        let links = result.objects("links").map { "\($0.string("from") ?? "?") -> \($0.string("to") ?? "?")" }
        #expect(links == ["dev/alice-tablet -> dev/alice-phone", "dev/alice-phone -> dev/alice-tablet"])
        #expect(result["written"] == .array([.string(svg), .string(html)]))
        for file in [svg, html] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }

        // As text for a terminal: plain ASCII in the C locale, the events listed in order.
        let text = try await sandbox.imsh(["-c", "timeline --since 1h"], environment: ["LANG": "C", "COLUMNS": "150"])
        #expect(text.status == 0, "\(text.stderr)")
        let events = text.stdoutLines.drop { $0 != "events:" }.dropFirst()
        #expect(events.count == 3, "\(text.stdout)")
        #expect(events.first?.contains("dev/alice-phone kickedOfflineByOtherClient (6) error 31010 <- dev/alice-tablet") == true)
        #expect(events.dropFirst().first?.contains("dev/alice-tablet kickedOfflineByOtherClient (6) error 31010 <- dev/alice-phone") == true)
        #expect(events.last?.contains("dev/bob-phone disconnException (16) error 31009: user-blocked") == true)
        #expect(text.stdoutLines.allSatisfy { $0.count <= 150 && $0.unicodeScalars.allSatisfy { $0.isASCII } })
        #expect(!text.stdout.contains("\u{1B}"))

        // In a browser: every lane and span drawn, coloured pixels, no console error.
        let spans = lanes.reduce(0) { $0 + $1.objects("spans").count }
        let visit = try await HeadlessChromium.visit(html, width: 1200, height: 500)
        #expect(visit.errors.isEmpty, "\(visit.console)")
        #expect(visit.console.contains { $0.hasPrefix("imsh-page lanes=4 spans=\(spans) charts=1 ") }, "\(visit.console)")
        // Connected green, kicked red and ended grey, as the spans are filled.
        for color: UInt32 in [0x2e9e44, 0xd6336c, 0x9aa0a6] {
            #expect(visit.colors.contains(color), "no \(String(color, radix: 16)) in \(visit.screenshot)")
        }
    }

    @Test func timelineTakesItsOptionsAndNamesWhatIsWrong() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("timeline --since soon")
        #expect(run.status == 2)
        #expect(run.result("timeline")?.string("error")?.contains("--since wants a duration") == true)
        let until = try await sandbox.json("timeline alice-phone --until 25:00")
        #expect(until.result("timeline")?.string("error")?.contains("--until wants now, HH:MM[:SS]") == true)
        // Nothing logged yet: the lanes are there, empty.
        let empty = try await sandbox.json("timeline alice-phone bob-phone --since 10m")
        #expect(empty.status == 0)
        #expect(empty.result("timeline")?.objects("lanes").map { $0.objects("spans").count } == [0, 0])
        // A damaged database is named, and left exactly as it was (read only: no repair, no move).
        let damaged = sandbox.write("not a database", to: "data/dev/bob-phone/imsh-dev/bob.sqlite")
        let unreadable = try await sandbox.json("timeline bob-phone")
        #expect(unreadable.status == 1)
        #expect(unreadable.result("timeline")?.string("error")?.hasPrefix("dev/bob-phone: \(damaged): ") == true, "\(unreadable.stdout)")
        #expect(try String(contentsOfFile: damaged, encoding: .utf8) == "not a database")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(sandbox.data)/dev/bob-phone/imsh-dev") == ["bob.sqlite"])
        // A symbolic link where the file should go is refused.
        let target = sandbox.write("keep", to: "target.html")
        try FileManager.default.createSymbolicLink(atPath: "\(sandbox.root)/link.html", withDestinationPath: target)
        let link = try await sandbox.json("timeline alice-phone --html \(sandbox.root)/link.html")
        #expect(link.status == 1)
        #expect(link.result("timeline")?.string("error")?.contains("it is a symbolic link") == true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    /// A live session keeps its file to itself: its lane comes through the session, beside the
    /// lanes of accounts read from their files.
    @Test func liveSessionsAreDrawnFromTheirSessions() async throws {
        let sandbox = Sandbox()
        let earlier = try await sandbox.json("connect bob-phone; wait bob-phone connected --timeout 10")
        #expect(earlier.status == 0, "\(earlier.stderr)")
        let run = try await sandbox.json("connect alice-phone; wait alice-phone connected --timeout 10; timeline alice-phone bob-phone")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lanes = try #require(run.result("timeline")).objects("lanes")
        #expect(lanes.compactMap { $0.string("account") } == ["dev/alice-phone", "dev/bob-phone"])
        #expect(lanes.first.map(Self.spanKinds) == ["connecting", "connected"], "\(lanes)")
        #expect(lanes.last.map(Self.spanKinds) == ["connecting", "connected", "ended"], "\(lanes)")
    }
}
