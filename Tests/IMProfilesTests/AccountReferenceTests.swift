import IMProfiles
import Testing

/// `PROFILE/ACCOUNT` as the shell takes it, and looking it up in a loaded set.
struct AccountReferenceTests {
    @Test func parsesBothForms() throws {
        #expect(try AccountReference(parsing: "dev/alice-phone") == AccountReference(profile: "dev", account: "alice-phone"))
        #expect(try AccountReference(parsing: "alice.phone") == AccountReference(profile: nil, account: "alice.phone"))
        #expect(try AccountReference(parsing: "dev/a").description == "dev/a")
    }

    @Test(arguments: [
        ("a/b/c", "a/b/c: expected PROFILE/ACCOUNT with one '/'"),
        ("/a", "/a: invalid profile name ''; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"),
        ("dev/", "dev/: invalid account name ''; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"),
        ("dev/a b", "dev/a b: invalid account name 'a b'; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"),
        (".x/a", ".x/a: invalid profile name '.x'; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'"),
    ])
    func refusesMalformedReferences(text: String, message: String) {
        #expect(throws: AccountReferenceError.self) { try AccountReference(parsing: text) }
        do {
            _ = try AccountReference(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func looksAccountsUp() throws {
        let fixture = ProfileFixture()
        let accounts = #"{"appKey": "k", "server": "mqtt://h", "accounts": {"a": {"tokenCommand": "t"}, "b": {"tokenCommand": "t"}}}"#
        fixture.write(accounts, to: "dev.json")
        fixture.write(accounts.replacingOccurrences(of: "\"b\"", with: "\"c\""), to: "prod.json")
        fixture.write("{", to: "broken.json")
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(try set.account(AccountReference(parsing: "prod/a")).reference == AccountReference(profile: "prod", account: "a"))
        #expect(try set.account(AccountReference(parsing: "b")).reference.description == "dev/b")
        #expect(throws: AccountLookupError.ambiguous("a", [AccountReference(profile: "dev", account: "a"), AccountReference(profile: "prod", account: "a")])) {
            try set.account(AccountReference(parsing: "a"))
        }
        #expect(throws: AccountLookupError.unknownAccount(AccountReference(profile: "prod", account: "b"))) {
            try set.account(AccountReference(parsing: "prod/b"))
        }
        #expect(throws: AccountLookupError.unknownProfile("test")) { try set.account(AccountReference(parsing: "test/a")) }
        #expect(throws: AccountLookupError.profileNotLoaded("broken")) { try set.account(AccountReference(parsing: "broken/a")) }
        #expect(AccountLookupError.ambiguous("a", [AccountReference(profile: "dev", account: "a")]).description
            == "a is in several profiles; write one of dev/a")
        #expect(set.accounts.map(\.reference.description) == ["dev/a", "dev/b", "prod/a", "prod/c"])
    }
}
