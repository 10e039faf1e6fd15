import IMEngine
import IMProfiles
import IMProtocol
@testable import IMShell
import Testing

struct HistoryPolicyTests {
    @Test func linesWithSecretsOrTokensAreNotKept() async throws {
        let redactor = SecretRedactor()
        redactor.add(Secret("imsh-dev-secret"))
        let policy = HistoryPolicy(redactor: redactor)
        #expect(policy.allows("connect all"))
        #expect(policy.allows("send alice-phone bob \"hello there\""))
        #expect(!policy.allows("send alice-phone bob imsh-dev-secret"))
        let token = try Token.issue(appKey: "imsh-dev", secret: "s3cret", userID: "alice", issuedAt: 1)
        #expect(!policy.allows("send alice-phone bob \(token)"), "a token imsh never saw is still recognised")
        #expect(!policy.allows("send alice-phone bob token=\(token)"))
        #expect(!policy.allows("send alice-phone bob \"\(token)\""))
        #expect(!policy.allows("send alice-phone bob \"unclosed \(token)"), "even on a line that does not parse")
    }

    @Test func thePromptShowsTheProfileAndConnectedSessions() {
        let context = Fixtures.context()
        let book = SessionBook()
        let prompt = ShellPrompt(context: context, book: book, style: .plain)
        #expect(prompt.text() == "dev> ")
        let alice = Fixtures.reference("dev/alice-phone"), bob = Fixtures.reference("dev/bob-phone")
        book.open(alice)
        book.open(bob)
        #expect(prompt.text() == "dev (0/2 connected)> ")
        Fixtures.recordStatus(.connected, of: alice, in: book)
        #expect(prompt.text() == "dev (1/2 connected)> ")
        Fixtures.recordStatus(.connected, of: Fixtures.reference("prod/carol-web"), in: book)
        #expect(prompt.text() == "dev (1/2 connected)> ", "other profiles do not count")
        #expect(ShellPrompt(context: Fixtures.context(active: nil), book: book, style: .plain).text() == "imsh> ")
    }

    @Test func theBookSeesStatesPassedThrough() {
        let book = SessionBook()
        let alice = Fixtures.reference("dev/alice-phone")
        #expect(book.reached(.unknown, alice, since: 0) && !book.reached(.connected, alice, since: 0))
        book.open(alice)
        let mark = book.mark(alice)
        for status in [ConnectionStatus.connecting, .connected, .networkUnavailable] {
            Fixtures.recordStatus(status, of: alice, in: book)
        }
        #expect(book.reached(.connected, alice, since: mark), "passed through after the mark")
        #expect(!book.reached(.connected, alice, since: book.mark(alice)), "not since a later mark")
        #expect(book.reached(.networkUnavailable, alice, since: book.mark(alice)), "the current status")
        #expect(book.journal(limit: 2).count == 2)
    }
}
