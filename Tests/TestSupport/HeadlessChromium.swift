import Foundation
import IMProcess

/// Debian's `chromium`, headless, opening a local page: what the page logged to its console,
/// and a screenshot with the colours found in it.
///
/// Chromium prints every console message at one level, so the page is opened through a copy
/// with a first script that relays `console.error`, `console.warn` and uncaught errors as
/// `page-error:` lines; `errors` collects those and anything logged as uncaught.
public struct HeadlessChromium: Sendable {
    /// What one page load left: console lines, errors among them, the screenshot's colours.
    public struct Visit: Sendable {
        /// The text of each console message, in order.
        public var console: [String]
        /// Console errors, warnings and uncaught exceptions.
        public var errors: [String]
        /// Every distinct colour of the screenshot, as 0xRRGGBB.
        public var colors: Set<UInt32>
        public var screenshot: String
    }

    public static let executable = "/usr/bin/chromium"

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Opens `page` (an HTML file) at `width`×`height`, waits for it to load, takes a screenshot.
    ///
    /// Chromium and the PNG decoder are waited for on a thread of their own, so the tests
    /// running alongside keep the cooperative pool.
    public static func visit(_ page: String, width: Int = 1200, height: Int = 800) async throws -> Visit {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try visitBlocking(page, width: width, height: height) })
            }
        }
    }

    private static func visitBlocking(_ page: String, width: Int, height: Int) throws -> Visit {
        guard isInstalled else {
            throw Failure("\(executable) is missing: run scripts/bootstrap, which installs Debian's chromium for these tests")
        }
        let directory = (page as NSString).deletingLastPathComponent
        let name = ((page as NSString).lastPathComponent as NSString).deletingPathExtension
        let observed = "\(directory)/\(name)-observed.html", screenshot = "\(directory)/\(name).png"
        var html = try String(contentsOfFile: page, encoding: .utf8)
        guard let head = html.range(of: "<head>") else { throw Failure("\(page) has no <head>") }
        html.insert(contentsOf: "<script>\(relay)</script>", at: head.upperBound)
        try html.write(toFile: observed, atomically: true, encoding: .utf8)
        let profile = "\(directory)/chromium-profile"
        let output = try ChildProcess.run(
            executable,
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)",
             "--window-size=\(width),\(height)", "--screenshot=\(screenshot)", "--enable-logging=stderr", "--v=0",
             "file://\(observed)"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory], directory: directory, timeout: .seconds(60))
        let log = String(decoding: output.stderr, as: UTF8.self)
        guard !output.timedOut, FileManager.default.fileExists(atPath: screenshot) else {
            throw Failure("chromium left no screenshot (timed out: \(output.timedOut)):\n\(log.suffix(2000))")
        }
        let console = log.split(separator: "\n").compactMap(Self.consoleText)
        let errors = console.filter { $0.hasPrefix("page-error:") || $0.hasPrefix("Uncaught") }
        return Visit(console: console, errors: errors, colors: try PNGColors.colors(of: screenshot), screenshot: screenshot)
    }

    /// `INFO:CONSOLE:97] "text", source: file:///… (97)` → `text`.
    static func consoleText(_ line: Substring) -> String? {
        guard line.contains(":CONSOLE"), let open = line.range(of: "] \""), let close = line.range(of: "\", source: ", options: .backwards),
              open.upperBound <= close.lowerBound else { return nil }
        return String(line[open.upperBound..<close.lowerBound])
    }

    static let relay = """
        (function () {
          ['error', 'warn'].forEach(function (level) {
            var original = console[level];
            console[level] = function () {
              console.log('page-error: ' + level + ': ' + Array.prototype.join.call(arguments, ' '));
              original.apply(console, arguments);
            };
          });
          window.addEventListener('error', function (event) {
            console.log('page-error: ' + (event.message || ('cannot load ' + (event.target && (event.target.src || event.target.href)))));
          }, true);
        })();
        """

    /// Chromium or the PNG decoder did not do its part; the description says what happened.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
