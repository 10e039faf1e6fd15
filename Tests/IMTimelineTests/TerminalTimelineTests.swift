import IMEngine
@testable import IMTimeline
import Testing

@Suite struct TerminalTimelineTests {
    typealias Log = RecordedLogs

    /// 12 columns of names, a space and 60 cells: one second per cell.
    static let width = 73

    func render(width: Int = width, color: Bool = false, unicode: Bool = false) -> [String] {
        TerminalTimeline(capabilities: TerminalCapabilities(width: width, color: color, unicode: unicode), clock: .utc)
            .lines(Log.timeline)
    }

    static func visibleCount(_ line: String) -> Int { stripped(line).count }

    static func stripped(_ line: String) -> String {
        line.replacing(#/\x{1B}\[[0-9;]*m/#, with: "")
    }

    @Test func plainASCIIAtSeventyThreeColumns() {
        let lines = render()
        #expect(lines[0] == "timeline 2023-11-14 22:13:20.000 to 2023-11-14 22:14:20.000, 3 accounts")
        #expect(lines[1] == String(repeating: " ", count: 13) + "22:13:20" + String(repeating: " ", count: 18) + "22:13:50"
            + String(repeating: " ", count: 18) + "22:14:20")
        #expect(lines[2] == "alice-phone  |#########K" + String(repeating: "x", count: 49))
        #expect(lines[3] == "alice-tablet          |" + String(repeating: "#", count: 20) + "....." + "||~|~" + String(repeating: "#", count: 10)
            + "-----|####")
        #expect(lines[4] == "bob-phone    ||" + String(repeating: "#", count: 18) + "!" + String(repeating: "_", count: 19) + "|"
            + String(repeating: "#", count: 17) + "__")
        let legend = lines[5...].prefix { !$0.hasPrefix("events:") }
        #expect(legend.joined().contains("# connected") && legend.joined().contains("K kick") && legend.joined().contains("! error"))
        #expect(lines.contains("events:"))
        let events = lines.drop { $0 != "events:" }.dropFirst()
        #expect(events.count == 2)
        #expect(events.first == "  22:13:30.000 alice-phone kickedOfflineByOtherClient (6) error 31010 <-~")
        #expect(events.last!.hasPrefix("  22:13:40.000 bob-phone disconnException (16) error 31009: user-blocked"))
        for line in lines {
            #expect(line.count <= Self.width, "\(line)")
            #expect(line.unicodeScalars.allSatisfy { $0.isASCII }, "\(line)")
        }
    }

    @Test func wideEnoughForTheWholeEventLines() {
        let lines = render(width: 140)
        #expect(lines.contains("  22:13:30.000 alice-phone kickedOfflineByOtherClient (6) error 31010 <- alice-tablet: other-device-login"))
        #expect(lines.last == "  22:13:40.000 bob-phone disconnException (16) error 31009: user-blocked")
        #expect(lines.allSatisfy { $0.count <= 140 })
        // The bar takes the rest of the width.
        #expect(lines[2].count == 140 && lines[2].hasPrefix("alice-phone  |"))
    }

    @Test func narrowTerminalsCutNamesAndLines() {
        let lines = render(width: 30)
        #expect(lines.allSatisfy { $0.count <= 30 }, "\(lines)")
        // Names get at most a third of the width, cut with a mark.
        #expect(lines[2].hasPrefix("alice-pho~ |"))
        #expect(lines[3].hasPrefix("alice-tab~ "))
        #expect(lines[0].hasSuffix("~"))
    }

    @Test func unicodeBlocksWhenTheLocaleIsUTF8() {
        let lines = render(unicode: true)
        #expect(lines[2] == "alice-phone  \u{254E}" + String(repeating: "\u{2588}", count: 9) + "K" + String(repeating: "\u{00D7}", count: 49))
        #expect(lines[4].contains("!" + String(repeating: "\u{00B7}", count: 19) + "\u{254E}"))
        #expect(lines.contains { $0.contains("error 31010 \u{2190} ") && $0.hasSuffix("\u{2026}") })
        let wide = TerminalTimeline(capabilities: TerminalCapabilities(width: 140, color: false, unicode: true), clock: .utc).lines(Log.timeline)
        #expect(wide.contains { $0.contains("error 31010 \u{2190} alice-tablet: other-device-login") })
        #expect(lines.allSatisfy { $0.count <= Self.width })
    }

    @Test func colourPaintsRunsOfOneKindAndChangesNothingElse() {
        let plain = render(), painted = render(color: true)
        #expect(painted.map(Self.stripped) == plain)
        #expect(painted[2] == "alice-phone  \u{1B}[1;33m|\u{1B}[0m\u{1B}[32m#########\u{1B}[0m\u{1B}[1;31mK\u{1B}[0m\u{1B}[31m"
            + String(repeating: "x", count: 49) + "\u{1B}[0m")
        #expect(painted.allSatisfy { Self.visibleCount($0) <= Self.width })
        #expect(!plain.joined().contains("\u{1B}"))
    }

    @Test func onlyTheLatestKicksAndErrorsAreListed() {
        let entries = (0..<250).flatMap { index in
            [Log.entry(Double(index) * 0.2, .connected), Log.entry(Double(index) * 0.2 + 0.1, .kickedOfflineByOtherClient, .kickedByOtherClient)]
        }
        let timeline = Timeline([LaneSource(name: "flaky", userID: nil, entries: entries)], since: nil, until: Log.until)
        let lines = TerminalTimeline(capabilities: TerminalCapabilities(width: 200, color: false, unicode: false), clock: .utc).lines(timeline)
        let events = Array(lines.drop { $0 != "events:" }.dropFirst())
        #expect(events.count == TerminalTimeline.eventLimit + 1)
        #expect(events.first == "  (50 earlier kicks and errors not listed; narrow the window with --since or --until)")
        #expect(events.last?.hasPrefix("  22:14:09.900 flaky kickedOfflineByOtherClient (6) error 31010") == true)
    }

    @Test func capabilitiesComeFromTheEnvironment() {
        func caps(_ variables: [String: String]) -> TerminalCapabilities {
            // Descriptor -1 is no terminal: colour stays off whatever the variables say.
            TerminalCapabilities.of(-1) { variables[$0] }
        }
        #expect(caps(["COLUMNS": "123", "LANG": "en_US.UTF-8"]) == TerminalCapabilities(width: 123, color: false, unicode: true))
        #expect(caps([:]) == TerminalCapabilities(width: 80, color: false, unicode: false))
        #expect(caps(["LC_ALL": "C", "LANG": "en_US.UTF-8"]).unicode == false)
        #expect(caps(["LC_CTYPE": "de_DE.utf8"]).unicode == true)
        #expect(caps(["LC_ALL": "", "LC_CTYPE": "", "LANG": "C.UTF-8"]).unicode == true)
    }
}
