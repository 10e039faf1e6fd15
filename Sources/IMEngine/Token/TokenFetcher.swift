import Foundation
import IMJSON
import IMProtocol
import IMTransport

/// Gets a token from a `TokenSource`, on a thread of its own and within a time bound.
///
/// Both sources block (a child process, a socket), so they never run on Swift's cooperative pool.
public enum TokenFetcher {
    /// The most bytes of output or body read; a token is far smaller.
    static let outputLimit = 64 * 1024

    /// Runs `source` and returns the token it gives, or why it gave none within `timeout`.
    public static func fetch(_ source: TokenSource, timeout: Duration) async throws(TokenFetchError) -> String {
        if case .provider(let provider) = source { return try await fetch(provider, timeout: timeout) }
        let result: Result<String, TokenFetchError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(TokenFetchError) in
                    try fetchBlocking(source, deadline: ContinuousClock.now + timeout)
                })
            }
        }
        return try result.get()
    }

    /// Runs the provider, giving up (and cancelling it) after `timeout`.
    private static func fetch(_ provider: TokenProvider, timeout: Duration) async throws(TokenFetchError) -> String {
        let source = TokenSource.provider(provider)
        let result = await withTaskGroup(of: Result<String, TokenFetchError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await provider.fetch())
                } catch {
                    return .failure(TokenFetchError(source, "\(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(TokenFetchError(source, "no answer within \(timeout)"))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(TokenFetchError(source, "cancelled"))
        }
        return try result.get()
    }

    static func fetchBlocking(_ source: TokenSource, deadline: ContinuousClock.Instant) throws(TokenFetchError) -> String {
        switch source {
        case .command(let command):
            let output = try CommandRunner.run(command, deadline: deadline, limit: outputLimit)
                .mapError { TokenFetchError(source, $0.reason) }.get()
            return try token(in: output, from: source)
        case .url(let url):
            let body = try BlockingHTTPClient.get(url, deadline: deadline, limit: outputLimit)
                .mapError { TokenFetchError(source, $0.reason) }.get()
            return try token(in: body, from: source)
        case .secureURL(let url, let tls):
            let settings: TLSConnectSettings
            do throws(TLSFailure) {
                settings = TLSConnectSettings(context: try TLSContext.client(tls), serverName: tls.serverName ?? url.host)
            } catch {
                throw TokenFetchError(source, "\(error)")
            }
            let body = try BlockingHTTPClient.get(url, tls: settings, deadline: deadline, limit: outputLimit)
                .mapError { TokenFetchError(source, $0.reason) }.get()
            return try token(in: body, from: source)
        case .provider(let provider):
            throw TokenFetchError(source, "\(provider) runs in a task, not on a thread")
        }
    }

    /// The token in a command's output or a response body: the trimmed text, or the `token`
    /// member when the text is a JSON object.
    static func token(in bytes: [UInt8], from source: TokenSource) throws(TokenFetchError) -> String {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        guard text.hasPrefix("{") else {
            guard !text.isEmpty else { throw TokenFetchError(source, "the answer is empty") }
            guard !text.contains(where: { $0.isWhitespace }) else {
                throw TokenFetchError(source, "the answer has more than one word; print only the token")
            }
            return text
        }
        guard let value = try? JSONValue(parsing: text), let token = value.objectValue?["token"]?.stringValue,
              !token.isEmpty
        else {
            throw TokenFetchError(source, "the JSON answer has no non-empty string member \"token\"")
        }
        return token
    }
}
