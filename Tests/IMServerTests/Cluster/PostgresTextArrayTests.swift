import IMPostgres
@testable import IMServer
import Testing
import TestSupport

/// Text arrays as they travel to PostgreSQL and back: what `literal` writes, PostgreSQL reads
/// as the same elements, and what PostgreSQL writes, `parse` reads back whole, whatever bytes
/// the elements hold.
@Suite(.timeLimit(.minutes(1)))
struct PostgresTextArrayTests {
    static let awkward = [
        "", "plain", "two words", "a,b", "{braces}", "quote \" inside", "back\\slash", "\\\"", "NULL", "null",
        "héllo wörld", "日本語", "emoji 😀👍🏽", "e\u{301}", "tab\tnew\nline", #"{"node":"a","text":"x \"y\""}"#,
    ]

    @Test func elementsSurviveTheRoundTripThroughPostgreSQL() async throws {
        let directory = TemporaryDirectory()
        let postgres = try await StockPostgres.start(directory: directory.path)
        defer { postgres.stop() }
        let connection = try PostgresConnection.connect(try postgres.createDatabase("arrays"))
        defer { connection.close() }
        let literal = PostgresTextArray.literal(Self.awkward)
        let row = try connection.execute("SELECT $1::text[], array_length($1::text[], 1), ($1::text[])[6]", [.text(literal)]).rows[0]
        #expect(row[1].int64 == Int64(Self.awkward.count), "PostgreSQL read the literal as \(Self.awkward.count) elements")
        #expect(row[2].string == Self.awkward[5])
        #expect(PostgresTextArray.parse(row[0].string) == Self.awkward)
        let withNull = try connection.execute("SELECT ARRAY['a', NULL, 'b c', '', 'NULL']::text[]").rows[0][0].string
        #expect(PostgresTextArray.parse(withNull) == ["a", "b c", "", "NULL"], "a NULL element is left out; the text NULL is kept")
    }

    @Test func emptyAndMissingArraysHaveNoElements() {
        #expect(PostgresTextArray.literal([]) == "{}")
        #expect(PostgresTextArray.parse("{}") == [])
        #expect(PostgresTextArray.parse(nil) == [])
        #expect(PostgresTextArray.parse(PostgresTextArray.literal(Self.awkward)) == Self.awkward)
    }
}
