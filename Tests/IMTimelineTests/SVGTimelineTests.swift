import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import IMEngine
@testable import IMTimeline
import Testing

@Suite struct SVGTimelineTests {
    typealias Log = RecordedLogs

    static func document(_ text: String) throws -> XMLDocument {
        try XMLDocument(xmlString: text, options: [])
    }

    static func elements(_ node: XMLNode, _ xpath: String) throws -> [XMLElement] {
        try node.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    /// By looking through the attributes: FoundationXML's `attribute(forName:)` finds nothing
    /// on an element in a default namespace.
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    @Test func theSVGIsXMLWithTheLanesSpansMarksAndLink() throws {
        let document = try Self.document(SVGTimeline(width: 1000, clock: .utc).document(Log.timeline))
        let root = try #require(document.rootElement())
        #expect(root.name == "svg" && root.uri == "http://www.w3.org/2000/svg")
        #expect(Self.attribute(root, "data-lanes") == "3" && Self.attribute(root, "data-spans") == "17")
        let lanes = try Self.elements(root, "*[local-name()='g'][@class='lane']")
        #expect(lanes.compactMap { Self.attribute($0, "data-name") } == ["alice-phone", "alice-tablet", "bob-phone"])
        #expect(lanes.compactMap { Self.attribute($0, "data-user") } == ["alice", "alice", "bob"])
        let expected: [[String]] = [
            ["connecting", "connected", "kicked"],
            ["connecting", "connected", "networkUnavailable", "connecting", "connected", "suspended", "connecting", "connected"],
            ["connecting", "connected", "ended", "connecting", "connected", "ended"],
        ]
        for (lane, kinds) in zip(lanes, expected) {
            let spans = try Self.elements(lane, "*[local-name()='rect']")
            #expect(spans.compactMap { Self.attribute($0, "data-kind") } == kinds)
            // Left to right, touching, inside the plot.
            let xs = spans.compactMap { Self.attribute($0, "x").flatMap(Double.init) }
            #expect(xs == xs.sorted() && xs.allSatisfy { $0 >= SVGTimeline.labelWidth && $0 <= 1000 })
        }
        let kicked = try #require(try Self.elements(lanes[0], "*[local-name()='rect']").last)
        #expect(Self.attribute(kicked, "data-status") == "6" && Self.attribute(kicked, "data-code") == "31010")
        #expect(Self.attribute(kicked, "data-detail") == "other-device-login")
        #expect(Self.attribute(kicked, "data-start") == "\(Log.at(10))" && Self.attribute(kicked, "data-end") == "\(Log.until)")
        let title = try #require(try Self.elements(kicked, "*[local-name()='title']").first?.stringValue)
        #expect(title.contains("status: kickedOfflineByOtherClient (6)") && title.contains("code: 31010 RC_CONN_KICKED_BY_OTHER_CLIENT"))
        #expect(title.contains("start: 2023-11-14 22:13:30.000") && title.contains("end: 2023-11-14 22:14:20.000"))
        // A standalone image has its details in titles only.
        #expect(try Self.elements(root, "//*[@data-tip]").isEmpty)
        let retry = try Self.elements(lanes[1], "*[local-name()='rect']")[3]
        #expect(Self.attribute(retry, "data-attempts") == "3")

        let marks = try Self.elements(root, "//*[local-name()='g'][starts-with(@class, 'mark')]")
        #expect(marks.filter { Self.attribute($0, "data-kind") == "kick" }.compactMap { Self.attribute($0, "data-code") } == ["31010"])
        #expect(marks.filter { Self.attribute($0, "data-kind") == "error" }.compactMap { Self.attribute($0, "data-code") } == ["31009"])
        #expect(marks.filter { Self.attribute($0, "data-kind") == "attempt" }.count == 1 + 5 + 3)
        let links = try Self.elements(root, "//*[local-name()='path'][@class='link']")
        #expect(links.count == 1)
        #expect(links.first.flatMap { Self.attribute($0, "data-from") } == "alice-tablet")
        #expect(links.first.flatMap { Self.attribute($0, "data-to") } == "alice-phone")
    }

    @Test func hostileTextIsEscaped() throws {
        let source = LaneSource(name: "a<b>&\"c\"", userID: "u'", entries: [
            ConnectionLogEntry(at: Log.base, status: .connecting, code: nil, detail: "<script>alert(1)</script> & \u{1}"),
        ])
        let text = SVGTimeline(clock: .utc).document(Timeline([source], since: nil, until: Log.until))
        let document = try Self.document(text)
        let root = try #require(document.rootElement())
        let lane = try #require(try Self.elements(root, "*[local-name()='g'][@class='lane']").first)
        #expect(Self.attribute(lane, "data-name") == "a<b>&\"c\"")
        #expect(!text.contains("<script>"))
    }

    @Test func theHTMLPageIsSelfContainedWithHoverDetails() throws {
        let page = HTMLTimeline(clock: .utc).page(Log.timeline)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        // Nothing loaded from anywhere: no src, no stylesheet or script links, no remote URL
        // other than the SVG namespace name.
        for needle in ["src=", "@import", "url(http", "<link rel=\"stylesheet\"", "<iframe"] {
            #expect(!page.contains(needle), "\(needle)")
        }
        let remote = page.ranges(of: #/https?://[^"' )]*/#).map { String(page[$0]) }
        #expect(Set(remote) == ["http://www.w3.org/2000/svg"])
        let tips = page.ranges(of: #/data-tip="([^"]*)"/#).map { String(page[$0]) }
        #expect(tips.count == 17)
        #expect(!page.contains("</title></rect>"), "the page's spans have their details once, in data-tip")
        for tip in tips {
            for field in ["status: ", "code: ", "detail: ", "start: ", "end: "] { #expect(tip.contains(field), "\(tip)") }
        }
        #expect(page.contains("console.log('imsh-page lanes="))
        #expect(page.contains("<td>alice-tablet</td>"))
    }

    /// A scenario's failed step: its own mark on its lane, its FILE:LINE and message as the
    /// title, and a legend entry that timelines without one do not get.
    @Test func aFailureMarkIsDrawnWithItsLocationAndOnlyItsTimelineHasItInTheLegend() throws {
        let plain = SVGTimeline(width: 1000, clock: .utc).document(Log.timeline)
        #expect(!plain.contains("failed step") && !plain.contains("mark-failure"))
        var timeline = Log.timeline
        let at = timeline.lanes[2].spans[1].start + 10
        timeline.lanes[2].marks.append(TimelineMark(kind: .failure, at: at, status: .connected, code: nil, detail: "s.imsh:4: expect bob-phone: none came"))
        let root = try #require(try Self.document(SVGTimeline(width: 1000, clock: .utc).document(timeline)).rootElement())
        let lanes = try Self.elements(root, "*[local-name()='g'][@class='lane']")
        #expect(try lanes.map { try Self.elements($0, "*[local-name()='g'][@class='mark mark-failure']").count } == [0, 0, 1])
        let mark = try #require(try Self.elements(lanes[2], "*[local-name()='g'][@class='mark mark-failure']").first)
        #expect(Self.attribute(mark, "data-at") == "\(at)")
        let title = try Self.elements(mark, "*[local-name()='title']").first?.stringValue
        #expect(title?.hasPrefix("s.imsh:4: expect bob-phone: none came\nfailed at ") == true, "\(title ?? "")")
        #expect(try Self.elements(root, "*[local-name()='g'][@class='legend']").first?.stringValue?.contains("failed step") == true)
    }
}
