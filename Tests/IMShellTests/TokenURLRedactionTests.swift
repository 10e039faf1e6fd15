import Testing

/// A token URL's query values (a key, often) never leave imsh: not in `accounts`, not in a
/// failed connect's message.
@Suite(.timeLimit(.minutes(1)))
struct TokenURLRedactionTests {
    @Test func queryValuesOfATokenURLAreRedactedEverywhere() async throws {
        let sandbox = Sandbox(shipped: false)
        let key = "k3y-0f-the-token-service"
        sandbox.write("""
            { "appKey": "k", "appSecret": "app-secret-1", "server": "embedded",
              "accounts": { "t": { "userId": "t", "tokenURL": "http://127.0.0.1:1/token?user=t&key=\(key)" } } }
            """, to: "profiles/p.json")
        let run = try await sandbox.json("accounts; connect t --timeout 2")
        #expect(run.stdout.contains("http://127.0.0.1:1/token?user=…&key=…"), "\(run.stdout)")
        #expect(!run.stdout.contains(key) && !run.stderr.contains(key), "\(run.stdout)\n\(run.stderr)")
    }
}
