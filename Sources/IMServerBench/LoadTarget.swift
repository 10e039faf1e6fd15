import Foundation
import IMBench
import IMCommandLine
import IMHTTP
import IMProfiles
import IMProtocol
import MQTT

/// The MQTT server a server bench drives, and how its clients log in and address each other.
///
/// With the contract's topics (`im`), publishers send to `im/send/RECEIVER` and receivers
/// subscribe to `im/inbox/#`, logging in with tokens signed here with the app's secret, as
/// imserver wants. With `plain` topics (any broker), publishers send to `lb/RECEIVER` and each
/// receiver subscribes to its own; users and passwords come from a file, or none are sent.
struct LoadTarget: Sendable, CustomStringConvertible {
    enum Topics: String, Sendable { case im, plain }

    /// One server of the target: its address, and its WebSocket path (nil: MQTT over TCP).
    struct Endpoint: Sendable, CustomStringConvertible {
        var address: HostPort
        var webSocketPath: String?

        var description: String { webSocketPath.map { "ws://\(address)\($0)" } ?? "mqtt://\(address)" }
    }

    /// The servers, in the order given: nodes of one service when more than one.
    var servers: [Endpoint]
    var topics: Topics
    var appKey: String?
    var appSecret: String?
    /// `USER:PASSWORD` pairs, used in turn; empty: log in without them (or with tokens).
    var users: [(name: String, password: String)] = []
    /// Makes this run's client message ids its own: a server that drops a resent id (imserver
    /// does) would take a second run's messages for the first's.
    let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)

    var description: String { servers.map(\.description).joined(separator: ",") }

    /// Reads `--target`, `--topics`, `--app-key`, `--app-secret` and `--users`.
    init(url: String, topics: String?, appKey: String?, appSecret: String?, usersFile: String?) throws(UsageError) {
        servers = []
        for item in url.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let server: ServerAddress
            do throws(URLParseError) {
                server = try ServerAddress(mqttURL: item)
            } catch {
                throw UsageError("--target wants mqtt://HOST[:PORT] or ws://HOST[:PORT][/PATH], not '\(item)': \(error.reason)")
            }
            guard !server.tls else { throw UsageError("--target: the bench speaks plain MQTT or WebSocket (mqtt://, ws://), not TLS") }
            servers.append(Endpoint(address: HostPort(host: server.host, port: server.port), webSocketPath: server.webSocketPath))
        }
        guard let mode = Topics(rawValue: topics ?? "im") else { throw UsageError("--topics wants im or plain, not '\(topics ?? "")'") }
        self.topics = mode
        self.appKey = appKey
        self.appSecret = appSecret
        if (appKey == nil) != (appSecret == nil) { throw UsageError("--app-key and --app-secret go together: tokens are signed with both") }
        if mode == .im && appKey == nil { throw UsageError("--topics im logs in with tokens: give --app-key and --app-secret") }
        if let usersFile {
            guard let text = try? String(contentsOfFile: usersFile, encoding: .utf8) else {
                throw UsageError("--users \(usersFile): cannot read the file")
            }
            for (number, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else {
                    throw UsageError("--users \(usersFile):\(number + 1): expected USER:PASSWORD")
                }
                users.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
            if users.isEmpty { throw UsageError("--users \(usersFile): no USER:PASSWORD lines") }
        }
    }

    /// Where the client of `pair` logs in: receivers on the servers in turn, each publisher on
    /// the server after its receiver's, so that with several nodes every message crosses two.
    func server(pair: Int, publisher: Bool) -> Endpoint {
        servers[(pair + (publisher ? 1 : 0)) % servers.count]
    }

    /// The CONNECT of client `index`, named `user` (also its client identifier).
    func connect(user: String, index: Int) throws(BenchError) -> Connect {
        var connect = Connect(clientIdentifier: user, cleanStart: true, keepAlive: 600)
        if let appKey, let appSecret {
            do {
                let token = try Token.issue(appKey: appKey, secret: appSecret, userID: user, issuedAt: WallClock.milliseconds())
                connect.userName = appKey
                connect.password = Array(token.utf8)
            } catch {
                throw BenchError("cannot sign a token for \(user): \(error)")
            }
            connect.properties = [.userProperty(IMUserProperty.platform, "pc")]
        } else if !users.isEmpty {
            let login = users[index % users.count]
            connect.userName = login.name
            connect.password = Array(login.password.utf8)
        }
        return connect
    }

    func topic(to receiver: String) -> String {
        topics == .im ? IMTopic.send(to: receiver).name : "lb/\(receiver)"
    }

    func filter(of receiver: String) -> String {
        topics == .im ? IMTopic.inboxFilter : "lb/\(receiver)"
    }

    /// The payload of a message: a text message of the contract, readable by any broker.
    func payload(pair: Int, sequence: Int, scheduled nanoseconds: Int64) -> [UInt8] {
        let text = LoadLedger.text(pair: pair, sequence: sequence, scheduled: nanoseconds)
        return TextMessage(text: text, cid: "lb-\(run)-\(pair)-\(sequence)").encoded()
    }
}
