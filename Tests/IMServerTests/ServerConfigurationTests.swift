import IMConfig
import IMHTTP
import IMServer
import Testing

struct ServerConfigurationTests {
    func parse(_ text: String) -> (ServerConfiguration?, [String]) {
        let diagnostics = ConfigDiagnostics(file: "server.json")
        let configuration = ServerConfiguration.parse(Array(text.utf8), diagnostics: diagnostics)
        return (configuration, diagnostics.all.map(\.description))
    }

    @Test func defaultsWithoutAppsIsTheDevelopmentApp() {
        let (configuration, problems) = parse("{}")
        #expect(problems.isEmpty)
        #expect(configuration == ServerConfiguration())
        #expect(configuration?.apps.first?.appKey == "imsh-dev")
    }

    @Test func readsEveryField() {
        let (configuration, problems) = parse("""
        {"apps": [{"appKey": "prod", "appSecret": "s3", "tokenLifetimeSeconds": 60, "clientKickPolicy": true,
                   "blocked": true, "offlineRetentionSeconds": 30}],
         "limits": {"maxConnections": 10, "maxPacketSize": 1024, "connectRate": 0, "connectTimeoutSeconds": 2,
                    "outgoingBufferLimit": 8192, "apiMaxBodySize": 2048}}
        """)
        #expect(problems.isEmpty)
        let app = AppSettings(appKey: "prod", appSecret: "s3", tokenLifetime: .seconds(60),
                              clientControlsKickPolicy: true, blocked: true, offlineRetention: .seconds(30))
        var limits = ServerLimits()
        limits.maxConnections = 10
        limits.maxPacketSize = 1024
        limits.connectRate = 0
        limits.connectTimeout = .seconds(2)
        limits.outgoingBufferLimit = 8192
        limits.apiMaxBodySize = 2048
        #expect(configuration == ServerConfiguration(apps: [app], limits: limits))
    }

    @Test func metricsListenIsAListeningAddress() {
        let (configuration, problems) = parse(#"{"metricsListen": "127.0.0.1:9464"}"#)
        #expect(problems.isEmpty)
        #expect(configuration?.metricsListen == HostPort(host: "127.0.0.1", port: 9464))
        let (broken, complaints) = parse(#"{"metricsListen": "127.0.0.1"}"#)
        #expect(broken == nil)
        #expect(complaints == ["server.json:1:19: error: metricsListen: wants HOST:PORT, such as 127.0.0.1:9464, not '127.0.0.1': no port; write HOST:PORT"])
    }

    @Test func defaultsOfAnApp() {
        let (configuration, _) = parse(#"{"apps": [{"appKey": "a", "appSecret": "b"}]}"#)
        let app = configuration?.apps.first
        #expect(app?.tokenLifetime == nil)
        #expect(app?.clientControlsKickPolicy == false)
        #expect(app?.blocked == false)
        #expect(app?.offlineRetention == .seconds(604_800))
    }

    @Test func problemsAreAllReportedAndNothingIsReturned() {
        let (configuration, problems) = parse("""
        {"apps": [{"appKey": "a"}, {"appKey": "a", "appSecret": "x", "blocked": "yes"}, {"appKey": "a", "appSecret": "y"}],
         "limits": {"maxConnections": 0}, "extra": 1}
        """)
        #expect(configuration == nil)
        #expect(problems == [
            "server.json:2:35: error: extra: unknown field",
            "server.json:1:11: error: apps[0].appSecret: missing (required)",
            "server.json:1:73: error: apps[1].blocked: expected true or false, found a string",
            "server.json:1:92: error: apps[2].appKey: app key a appears more than once",
            "server.json:2:31: error: limits.maxConnections: 0 is out of range 1...10000000",
        ])
    }
}
