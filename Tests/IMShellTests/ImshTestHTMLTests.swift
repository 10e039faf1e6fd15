import Foundation
import TestSupport
import Testing

/// `imsh test --html DIR` through the binary: a failed scenario's page holds its accounts'
/// lanes from its databases and the failure marked on its account's lane with its FILE:LINE,
/// and a real browser draws them; a passing scenario has no page but is in the index.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImshTestHTMLTests {
    /// Line 4 fails; a second later line 6's connect kicks alice-phone: the failure is marked
    /// when it failed, not at the next status change.
    static let failing = """
        connect alice-phone bob-phone
        send alice-phone bob hi
        expect bob-phone message from alice hi --within 5
        expect alice-phone message from bob never --within 0.3
        sleep 1
        connect alice-tablet
        expect alice-phone kickedOfflineByOtherClient --within 5
        """

    /// The values of `name="…"` in `text`, in order.
    static func attributes(_ name: String, in text: String) -> [String] {
        text.matches(of: try! Regex("\(name)=\"([^\"]*)\"")).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// The markup of the lane of `account`: from its `g.lane` to the next lane or the end of the lanes.
    static func lane(_ account: String, in page: String) -> String? {
        guard let start = page.range(of: "<g class=\"lane\" data-name=\"\(account)\"") else { return nil }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "<g class=\"lane\"")?.lowerBound ?? rest.range(of: "<g class=\"legend\"")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func aFailedScenarioHasAPageWithItsLanesAndTheFailureMarkedAndDrawn() async throws {
        let sandbox = Sandbox()
        sandbox.write(Self.failing, to: "sc/kick.imsh")
        sandbox.write("connect bob-phone\nexpect bob-phone connected\n", to: "sc/ok.imsh")
        let report = "\(sandbox.root)/report"
        let run = try await ImshTestCommandTests.test(sandbox, ["--html", report, "\(sandbox.root)/sc"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: report).sorted() == ["index.html", "kick.html"])
        #expect(try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int == 0o700)
        for file in ["index.html", "kick.html"] {
            #expect(try FileManager.default.attributesOfItem(atPath: "\(report)/\(file)")[.posixPermissions] as? Int == 0o600, "\(file)")
        }

        let index = try String(contentsOfFile: "\(report)/index.html", encoding: .utf8)
        #expect(index.contains("<tr class=\"failed\"><td>failed</td><td><a href=\"./kick.html\">\(sandbox.root)/sc/kick.imsh</a></td>"), "\(index)")
        #expect(index.contains("<tr class=\"passed\"><td>passed</td><td>\(sandbox.root)/sc/ok.imsh</td>"), "\(index)")
        #expect(index.contains("1 passed, 1 failed"))

        let pagePath = "\(report)/kick.html"
        let page = try String(contentsOfFile: pagePath, encoding: .utf8)
        let location = "\(sandbox.root)/sc/kick.imsh:4"
        #expect(page.contains("<b>FAIL</b> \(location): expect dev/alice-phone: a message from bob"), "\(page)")
        // The lanes of the accounts the scenario used, from its databases, in the profile's order.
        let names = Self.attributes("data-name", in: page)
        #expect(names == ["dev/alice-phone", "dev/alice-tablet", "dev/bob-phone"], "\(names)")
        // One failure mark, on alice-phone's lane, its title FILE:LINE and the message.
        #expect(page.components(separatedBy: "class=\"mark mark-failure\"").count == 2)
        let phone = try #require(Self.lane("dev/alice-phone", in: page))
        let mark = try #require(phone.range(of: "<g class=\"mark mark-failure\"").map { String(phone[$0.lowerBound...]) })
        #expect(mark.contains("<title>\(location): expect dev/alice-phone: a message from bob"), "\(mark)")
        #expect(mark.contains("failed at "), "\(mark)")
        // After alice-phone's login and the 0.3 s it waited, a second before the kick that followed.
        let at = try #require(Self.attributes("data-at", in: mark).first.flatMap { Int64($0) })
        let connected = try #require(phone.range(of: "span-connected").map { Self.attributes("data-start", in: String(phone[$0.lowerBound...])) }?.first)
        let kick = try #require(phone.range(of: "mark-kick").map { Self.attributes("data-at", in: String(phone[$0.lowerBound...])) }?.first)
        #expect(at >= Int64(connected)! + 300 && at + 900 <= Int64(kick)!, "failure at \(at), connected \(connected), kicked \(kick)")
        // The scenario's output: the failed result and the events.
        #expect(page.contains("&quot;location&quot;:&quot;\(location)&quot;"))
        #expect(page.contains("&quot;event&quot;:&quot;status&quot;"))

        // In a browser: every lane, span and mark laid out (the failure's among them), the
        // failure's purple drawn, no console error.
        let spans = page.components(separatedBy: "<rect class=\"span ").count - 1
        let marks = page.components(separatedBy: "<g class=\"mark ").count - 1
        let visit = try await HeadlessChromium.visit(pagePath, width: 1200, height: 700)
        #expect(visit.errors.isEmpty, "\(visit.console)")
        #expect(visit.console.contains { $0.hasPrefix("imsh-page lanes=3 spans=\(spans) charts=1 marks=\(marks) ") }, "\(visit.console)")
        #expect(visit.colors.contains(0x7b1fa2), "no failure purple in \(visit.screenshot)")
    }

    @Test func aScenarioThatNowPassesLosesItsPageAndAFailureThatNamesNoAccountIsOnEveryLane() async throws {
        let sandbox = Sandbox()
        let report = "\(sandbox.root)/report"
        sandbox.write("connect bob-phone\nexpect bob-phone connected --within 5\nsleep 120\n", to: "sc/flip.imsh")
        let hung = try await ImshTestCommandTests.test(sandbox, ["--timeout", "2", "--html", report, "\(sandbox.root)/sc"])
        #expect(hung.status == 1, "\(hung.stdout)\(hung.stderr)")
        let page = try String(contentsOfFile: "\(report)/flip.html", encoding: .utf8)
        // A timeout names no account: the mark is on bob-phone's lane, the only one.
        #expect(Self.attributes("data-name", in: page) == ["dev/bob-phone"])
        #expect(page.contains("<title>\(sandbox.root)/sc/flip.imsh:3: timed out after 2 s in: sleep 120"), "\(page)")

        sandbox.write("connect bob-phone\nexpect bob-phone connected --within 5\n", to: "sc/flip.imsh")
        let passed = try await ImshTestCommandTests.test(sandbox, ["--html", report, "\(sandbox.root)/sc"])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: report) == ["index.html"])
    }

    @Test func aSymbolicLinkInAPagesPlaceIsRefusedAndADirectoryThatCannotBeMadeIsAUsageError() async throws {
        let sandbox = Sandbox()
        sandbox.write("expect bob-phone connected --within 0.1\n", to: "sc/broken.imsh")
        let report = "\(sandbox.root)/report"
        try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: false)
        let target = sandbox.write("keep", to: "target.html")
        try FileManager.default.createSymbolicLink(atPath: "\(report)/broken.html", withDestinationPath: target)
        let run = try await ImshTestCommandTests.test(sandbox, ["--html", report, "\(sandbox.root)/sc"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("imsh test: cannot write \(report)/broken.html: it is a symbolic link"), "\(run.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        #expect(FileManager.default.fileExists(atPath: "\(report)/index.html"))

        let file = sandbox.write("a file", to: "plain")
        let usage = try await ImshTestCommandTests.test(sandbox, ["--html", "\(file)/report", "\(sandbox.root)/sc"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("imsh test: --html \(file)/report: cannot make it a directory"), "\(usage.stderr)")
        #expect(usage.stdout.isEmpty)
    }
}
