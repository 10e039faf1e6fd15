import Foundation
@testable import IMEngine
import IMHTTP
import IMProtocol
@testable import IMServer
import MQTT
import Testing

/// imsh-protocol(7) held to the code: every legacy code, status, `im-error`, reason code the
/// server sends, API path and error code, and the backoff schedule, with the values the code
/// gives them. Definitions are read from the sources too, so a code added there and not to the
/// page fails here.
struct ProtocolPageTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let page = read("man/imsh-protocol.7")

    /// The `.It` lines whose first word (after a `Li` or `Pa`) is `key`, their cells split at `Ta`,
    /// with mdoc's escaped minus read as '-'.
    static func rows(_ key: String) -> [[String]] {
        page.split(separator: "\n").compactMap { line -> [String]? in
            guard line.hasPrefix(".It ") else { return nil }
            var words = line.dropFirst(4).split(separator: " ", omittingEmptySubsequences: true)
            if let first = words.first, ["Li", "Pa"].contains(first) { words.removeFirst() }
            guard words.first.map({ $0.replacingOccurrences(of: "\\-", with: "-") }) == key else { return nil }
            return words.joined(separator: " ").replacingOccurrences(of: "\\-", with: "-")
                .components(separatedBy: " Ta ").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `(name, value)` of every `static let NAME = TYPE(rawValue: VALUE)` in the source file.
    static func definitions(of type: String, in path: String) throws -> [(name: String, value: String)] {
        let pattern = try Regex("static let (\\w+) = \(type)\\(rawValue: (-?\\d+)\\)")
        return read(path).matches(of: pattern).compactMap { match in
            guard let name = match.output[1].substring, let value = match.output[2].substring else { return nil }
            return (String(name), String(value))
        }
    }

    @Test func thePageIsThere() {
        #expect(Self.page.contains(".Dt IMSH-PROTOCOL 7"), "man/imsh-protocol.7 is readable")
    }

    @Test func everyLegacyCodeIsListedWithItsSDKName() throws {
        let codes = try Self.definitions(of: "ConnectErrorCode", in: "Sources/IMEngine/Codes/ConnectErrorCode.swift")
        #expect(codes.count >= 12, "the codes are read from the source")
        for (name, value) in codes {
            let code = ConnectErrorCode(rawValue: Int(value)!)
            let rows = Self.rows(value)
            #expect(rows.count == 1, "one entry for \(value) (\(name)) in Legacy error codes")
            #expect(rows.first?.first == "\(value) Li \(code.name)", "\(value) is listed as \(code.name)")
        }
    }

    @Test func everyStatusIsListedWithItsValue() throws {
        let statuses = try Self.definitions(of: "ConnectionStatus", in: "Sources/IMEngine/Codes/ConnectionStatus.swift")
        #expect(Set(statuses.map { Int($0.value)! }) == Set(ConnectionStatus.allKnown.map(\.rawValue)),
                "allKnown holds every status the source defines")
        for status in ConnectionStatus.allKnown {
            let rows = Self.rows(status.name)
            #expect(rows.count == 1, "one row for \(status.name) in Connection statuses")
            #expect(rows.first.map { Array($0.prefix(2)) } == [status.name, String(status.rawValue)],
                    "\(status.name) is listed with \(status.rawValue)")
        }
    }

    /// The engine's verdict on `name`, from CONNACK where the server refuses with it, else from DISCONNECT.
    static func engineVerdict(on name: IMErrorName) -> SessionTermination? {
        var verdicts: [ServerVerdict] = []
        if let code = name.connackReasonCode {
            verdicts.append(.connack(ReasonCode(code), imError: name, serverReference: nil))
        }
        if let code = name.disconnectReasonCode {
            verdicts.append(.disconnect(ReasonCode(code), imError: name, serverReference: nil))
        }
        let terminations = verdicts.compactMap { verdict -> SessionTermination? in
            guard case .failure(.terminal(let termination)) = verdict else { return nil }
            return termination
        }
        guard terminations.count == verdicts.count, let first = terminations.first,
              terminations.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    @Test func everyIMErrorRowSaysWhatTheServerSendsAndWhatTheEngineReports() {
        #expect(IMErrorName.all.count >= 9)
        for name in IMErrorName.all {
            let rows = Self.rows(name.rawValue).filter { $0.count == 5 }
            #expect(rows.count == 1, "one row for \(name) in The im-error values")
            guard let row = rows.first else { continue }
            let dash = "\\(em"
            #expect(row[1] == (name.connackReasonCode.map { ReasonCode($0).hex } ?? dash), "\(name): CONNACK code")
            #expect(row[2] == (name.disconnectReasonCode.map { ReasonCode($0).hex } ?? dash), "\(name): DISCONNECT code")
            guard let verdict = Self.engineVerdict(on: name) else {
                Issue.record("the engine does not stop for good on \(name), as the page says of every im-error")
                continue
            }
            #expect(row[3] == "\(verdict.status.name) \(verdict.status.rawValue)", "\(name): status")
            #expect(row[4] == (verdict.code.map { String($0.rawValue) } ?? "none"), "\(name): legacy code")
        }
    }

    /// The server's refusals, from its own login check, agree with the page's im-error rows.
    @Test func theServersLoginRefusalsAreThoseOfThePage() throws {
        let app = AppSettings(appKey: "k", appSecret: "s", tokenLifetime: .seconds(60))
        let now: Int64 = 1_000_000_000
        let fresh = try Token.issue(appKey: "k", secret: "s", userID: "u", issuedAt: now)
        let old = try Token.issue(appKey: "k", secret: "s", userID: "u", issuedAt: now - 120_000)
        let cases: [(AppSettings?, String, UserState, IMErrorName)] = [
            (nil, fresh, .initial, .appUnknown),
            (AppSettings(appKey: "k", appSecret: "s", blocked: true), fresh, .initial, .appBlocked),
            (app, fresh + "x", .initial, .tokenIncorrect),
            (app, old, .initial, .tokenExpired),
            (app, fresh, UserState(tokensInvalidBefore: now + 1), .tokenExpired),
            (app, fresh, UserState(deactivated: true), .userAbandoned),
            (app, fresh, UserState(blockedUntil: now + 60_000), .userBlocked),
        ]
        for (app, token, state, expected) in cases {
            let verdict = LoginCheck.evaluate(appKey: "k", token: token, app: app, now: now) { _ in state }
            guard case .refuse(let code, let name) = verdict else {
                Issue.record("\(expected): the server accepted")
                continue
            }
            #expect(name == expected)
            #expect(Self.rows(name.rawValue).first { $0.count == 5 }?[1] == code.hex, "\(name): the page's CONNACK code")
        }
    }

    /// Every ReasonCode constant the server's sources name, and 0x01 (the inbox granted at QoS 1).
    static func reasonCodesTheServerSends() throws -> [ReasonCode] {
        let definition = try Regex("public static let (\\w+) = ReasonCode\\(0x([0-9A-F]{2})\\)")
        var byName: [String: ReasonCode] = [:]
        for match in read("Sources/MQTT/ReasonCode.swift").matches(of: definition) {
            guard let name = match.output[1].substring, let hex = match.output[2].substring else { continue }
            byName[String(name)] = ReasonCode(UInt8(hex, radix: 16)!)
        }
        let directory = root.appendingPathComponent("Sources/IMServer")
        var used: Set<UInt8> = [ReasonCode.granted(.atLeastOnce).rawValue]
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let member = try Regex("\\.([a-zA-Z]+)\\b")
        for file in files {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            for match in text.matches(of: member) {
                if let name = match.output[1].substring, let code = byName[String(name)] { used.insert(code.rawValue) }
            }
        }
        return used.sorted().map(ReasonCode.init(rawValue:))
    }

    @Test func everyReasonCodeTheServerSendsIsInTheTable() throws {
        let codes = try Self.reasonCodesTheServerSends()
        #expect(codes.count >= 15, "the codes are read from Sources/IMServer")
        for code in codes {
            let row = Self.rows(code.hex).first { $0.count == 3 }
            #expect(row?[1] == code.name, "\(code.hex) \(code.name) is in Reason codes the server sends")
        }
    }

    @Test func theBackoffTableIsTheSchedule() {
        let schedule = BackoffSchedule()
        func seconds(_ duration: Duration) -> String {
            let (whole, fraction) = duration.components
            return String(format: "%g s", Double(whole) + Double(fraction) / 1e18)
        }
        for (index, delay) in schedule.delays.enumerated() {
            #expect(Self.rows(String(index + 1)).first == [String(index + 1), seconds(delay)], "retry \(index + 1)")
        }
        let last = String(schedule.delays.count + 1)
        #expect(Self.rows(last).first == ["\(last) and later", seconds(schedule.ceiling)], "the ceiling")
        let policy = SessionStateMachine.Configuration()
        #expect(Self.page.contains("stable time, \(policy.stableAfter.components.seconds) seconds"))
        #expect(Self.page.contains("background grace\n(\(policy.backgroundGrace.components.seconds) seconds by default)"))
    }

    @Test func everyAPIPathIsDocumentedAndNoOther() {
        let documented = Self.page.split(separator: "\n").filter { $0.hasPrefix(".It Pa /") }
            .compactMap { $0.split(separator: " ")[2...].first.map(String.init) }
        #expect(Set(documented) == Set(APIEndpoint.allCases.map(\.rawValue)))
        #expect(documented.count == APIEndpoint.allCases.count, "each path once")
    }

    @Test func everyAPIErrorIsInTheAnswersTable() {
        let errors: [APIError] = [
            .field("userId", "missing"), .unauthorized("bad signature"),
            APIError(.internalServerError, code: .internalError, "failed"),
            APIError(.serviceUnavailable, code: .rateLimited, "too many"),
            APIError(.forbidden, "blocked"), APIError(.notFound, "no path"), APIError(.methodNotAllowed, "POST"),
        ]
        for error in errors {
            let rows = Self.rows(String(error.status.rawValue)).filter { $0.count == 3 }
            #expect(rows.contains { $0[1] == String(error.code.rawValue) },
                    "HTTP \(error.status.rawValue) with code \(error.code.rawValue) is in Answers")
        }
    }

    /// `disconnect --disable-push` on the wire is what the page's DISCONNECT section says.
    @Test func aDisconnectWithPushOffIsThePages() {
        let packet = SessionPackets.disconnect(disablePush: true)
        #expect(packet.reasonCode == .normalDisconnection)
        #expect(packet.properties.userProperty(IMUserProperty.push) == IMUserProperty.pushOff)
        #expect(packet.properties.sessionExpiryInterval == nil, "the session, and so a broker's queue, is left alone")
        #expect(Self.page.contains(".It User Property Li \(IMUserProperty.push) Ta Li \(IMUserProperty.pushOff) :"))
        #expect(SessionPackets.disconnect(disablePush: false).properties.userProperty(IMUserProperty.push) == nil)
    }

    @Test func everyUserPropertyAndTopicIsNamed() {
        let names = [
            IMUserProperty.platform, IMUserProperty.reconnect, IMUserProperty.kickEnable, IMUserProperty.userID,
            IMUserProperty.error, IMUserProperty.messageUID, IMUserProperty.sentAt, IMUserProperty.push, IMUserProperty.pushOff,
            IMTopic.inboxFilter, TextMessage.contentType,
        ] + Platform.allCases.map(\.rawValue)
        for name in names {
            #expect(Self.page.contains("Li \(name)"), "\(name) is named in the page")
        }
        #expect(Self.page.contains(".Li \(IMTopic.send(to: "X").name.dropLast()) Ns Ar TO"))
        #expect(Self.page.contains(".Li \(IMTopic.inbox(from: "X").name.dropLast()) Ns Ar FROM"))
        #expect(Self.page.contains("port \(ServerAddress.defaultTLSPort)"))
        #expect(Self.page.contains("port \(ServerAddress.defaultPort)"))
    }
}
