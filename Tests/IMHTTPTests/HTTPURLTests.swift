import IMHTTP
import Testing

struct HTTPURLTests {
    @Test func parsesHostPortPathAndQuery() throws {
        let url = try HTTPURL(parsing: "http://Example.COM:8080/token?app=k&x=%20#frag")
        #expect(url.host == "example.com")
        #expect(url.port == 8080)
        #expect(url.path == "/token")
        #expect(url.query == "app=k&x=%20")
        #expect(url.requestTarget == "/token?app=k&x=%20")
        #expect(url.hostHeader == "example.com:8080")
        #expect(url.description == "http://example.com:8080/token?app=…&x=…")
        #expect(url.queryValues == ["k", "%20"])
    }

    @Test func queryValuesAreRedactedInTheDescriptionOnly() throws {
        let url = try HTTPURL(parsing: "https://h/t?key=s3cr3t-value&empty=&bare-credential&&x")
        #expect(url.description == "https://h/t?key=…&empty=&…&&…")
        #expect(url.requestTarget == "/t?key=s3cr3t-value&empty=&bare-credential&&x")
        #expect(url.queryValues == ["s3cr3t-value", "bare-credential", "x"])
    }

    @Test func defaultsPortAndPath() throws {
        let url = try HTTPURL(parsing: "HTTP://127.0.0.1")
        #expect(url == HTTPURL(host: "127.0.0.1", port: 80, path: "/", query: nil))
        #expect(url.hostHeader == "127.0.0.1")
        #expect(try HTTPURL(parsing: "http://h?q").requestTarget == "/?q")
        #expect(try HTTPURL(parsing: "http://h:/p").port == 80)
    }

    @Test func parsesIPv6Literals() throws {
        let url = try HTTPURL(parsing: "http://[::1]:9000/api")
        #expect(url.host == "::1")
        #expect(url.isIPv6)
        #expect(url.port == 9000)
        #expect(url.hostHeader == "[::1]:9000")
        #expect(try HTTPURL(parsing: "http://[2001:DB8::7]/").host == "2001:db8::7")
        #expect(try HTTPURL(parsing: "http://[::ffff:1.2.3.4]").hostHeader == "[::ffff:1.2.3.4]")
    }

    @Test func refusesWhatItCannotUseWithAClearReason() throws {
        #expect(try HTTPURL(parsing: "https://example.com/a") == HTTPURL(host: "example.com", port: 443, path: "/a", secure: true))
        #expect(try HTTPURL(parsing: "HTTPS://h:8443").description == "https://h:8443/")
        for text in [
            "", "example.com/path", "ftp://h/", "http://", "http:///path", "http://:80/", "http://h:0/", "http://h:65536/",
            "http://h:8o/", "http://user:pw@h/", "http://[::1/", "http://[nothex]/", "http://[::1]x/", "http://h h/",
            "http://hé/", "http://h/pa th", "//h/", "http://h:123456/", "http://a,b/",
        ] {
            #expect(throws: URLParseError.self, "\(text)") { try HTTPURL(parsing: text) }
        }
    }
}

/// `text` keeps what `description` hides, and reads back as the same URL.
struct HTTPURLTextTests {
    @Test func theWholeURLReadsBack() throws {
        let url = try HTTPURL(parsing: "https://[::1]:8443/token?user=a&key=s3cret")
        #expect(url.text == "https://[::1]:8443/token?user=a&key=s3cret")
        #expect(try HTTPURL(parsing: url.text) == url)
        #expect(!url.description.contains("s3cret"))
    }
}
