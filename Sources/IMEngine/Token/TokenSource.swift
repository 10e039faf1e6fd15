import IMHTTP
import IMTransport

/// Where a session gets fresh tokens from.
public enum TokenSource: Sendable, Equatable, CustomStringConvertible {
    /// A shell command (`/bin/sh -c`); the token is its standard output, trimmed.
    case command(String)
    /// An HTTP URL answered by GET; the token is the body, trimmed, or the `token` member of a JSON body.
    case url(HTTPURL)
    /// Code that returns a token (a server API client, for one).
    case provider(TokenProvider)
    /// An https URL, its server verified with `tls`; otherwise as `url`.
    case secureURL(HTTPURL, tls: TLSClientConfiguration)

    /// `url`, or `secureURL` verified with `tls` (default settings when nil) for an https URL.
    public static func fetching(_ url: HTTPURL, tls: TLSClientConfiguration?) -> TokenSource {
        url.isSecure ? .secureURL(url, tls: tls ?? TLSClientConfiguration()) : .url(url)
    }

    public var description: String {
        switch self {
        case .command(let command): return "command '\(command)'"
        case .url(let url), .secureURL(let url, _): return "URL \(url)"
        case .provider(let provider): return provider.name
        }
    }
}
