import IMJSON
import IMHTTPClient
import IMProcess
import IMProtocol
import IMThreads
import IMTransport

/// Gets a token from a `TokenSource` within a time bound.
///
/// A command blocks (a child process), so it runs on a thread of its own, never on Swift's
/// cooperative pool; a URL is fetched by the one HTTP client in `loop`; a provider runs as a task.
/// Every failure carries a `TokenCondition`, the same for the same condition whatever the source.
public enum TokenFetcher {
    /// The most bytes of output or body read; a token is far smaller.
    static let outputLimit = 64 * 1024

    /// Runs `source` and returns the token it gives, or why it gave none within `timeout`.
    public static func fetch(_ source: TokenSource, timeout: Duration, loop: EventLoop) async throws(TokenFetchError) -> String {
        switch source {
        case .command(let command):
            // The command's thread does not see the task's cancellation: this ends the command
            // as soon as the task gives up, rather than at the fetch's deadline or never (the
            // process exiting first).
            let cancellation = RunCancellation()
            let result = await withTaskCancellationHandler {
                await BlockingCall.run {
                    CommandRunner.run(command, deadline: ContinuousClock.now + timeout, limit: outputLimit, cancellation: cancellation)
                }
            } onCancel: {
                cancellation.cancel()
            }
            return try token(in: try result.get(), from: source)
        case .url(let url), .secureURL(let url, _):
            let tls: TLSClientConfiguration? = if case .secureURL(_, let tls) = source { tls } else { nil }
            let body: [UInt8]
            do throws(HTTPClientError) {
                body = try await HTTPClient.get(url, tls: tls, on: loop, timeout: timeout, bodyLimit: outputLimit)
            } catch {
                throw TokenFetchError(source, error.description, condition: condition(of: error))
            }
            return try token(in: body, from: source)
        case .provider(let provider):
            return try await fetch(provider, timeout: timeout)
        }
    }

    /// What an HTTP failure means: a JSON `code` in a refusal's body names it; otherwise a
    /// server error or no answer is `unavailable`, any other refusal `refused`.
    static func condition(of error: HTTPClientError) -> TokenCondition {
        if case .refused(_, let body) = error, let named = TokenCondition.named(in: body) { return named }
        return error.isTransient ? .unavailable : .refused
    }

    /// Runs the provider, giving up (and cancelling it) after `timeout`.
    private static func fetch(_ provider: TokenProvider, timeout: Duration) async throws(TokenFetchError) -> String {
        let source = TokenSource.provider(provider)
        let result = await withTaskGroup(of: Result<String, TokenFetchError>?.self) { group in
            group.addTask {
                do {
                    return .success(try await provider.fetch())
                } catch let error as TokenProviderFailure {
                    return .failure(TokenFetchError(source, error.reason, condition: error.condition))
                } catch {
                    return .failure(TokenFetchError(source, "\(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(TokenFetchError(source, "no answer within \(timeout)", condition: .unavailable))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(TokenFetchError(source, "cancelled", condition: .unavailable))
        }
        return try result.get()
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
            if let named = TokenCondition.named(in: bytes) {
                throw TokenFetchError(source, "the answer says \(named)", condition: named)
            }
            throw TokenFetchError(source, "the JSON answer has no non-empty string member \"token\"")
        }
        return token
    }
}
