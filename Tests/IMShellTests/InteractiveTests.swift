import Foundation
import IMServer
import Testing
import TestSupport

/// The real imsh binary on a pseudo-terminal: completion, events above a half-typed line,
/// the prompt's count, Ctrl-C on a running command, history, quit.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct InteractiveTests {
    @Test func aSessionAtTheTerminal() async throws {
        let server = try await TestServer.start()
        let sandbox = Sandbox()
        sandbox.write(server.profile(accounts: #"{ "erin-phone": { "userId": "erin" }, "frank-phone": { "userId": "frank" } }"#), to: "profiles/remote.json")
        let shell = try InteractiveImsh(["--profiles", sandbox.profiles, "--data", sandbox.data, "--profile", "remote"], home: sandbox.home)
        defer { shell.close() }

        await shell.expectScreen("the banner and the prompt") { screen in
            screen.allLines.joined().contains("  profiles  \(sandbox.profiles) (from --profiles)") && screen.showsOnly(prompt: "remote> ")
        }
        #expect(String(decoding: shell.terminal.bytes, as: UTF8.self).contains("\u{1B}[1m"), "colour on a terminal")

        // TAB completes the command and the account names.
        shell.type("co" + Key.tab)
        // (The screen model trims trailing spaces: the cursor's column shows the one completion adds.)
        await shell.expectScreen("connect completed") { $0.cursorLine == "remote> connect" && $0.column == 16 }
        shell.type("er" + Key.tab + "fr" + Key.tab)
        await shell.expectScreen("both accounts completed") { $0.cursorLine == "remote> connect erin-phone frank-phone" && $0.column == 39 }
        shell.type(Key.enter)
        await shell.expectScreen("both connected, and the count in the prompt") { screen in
            screen.allLines.contains("remote/erin-phone   connected (0) user erin")
                && screen.allLines.contains("remote/frank-phone  connected (0) user frank")
                && screen.showsOnly(prompt: "remote (2/2 connected)> ")
        }

        // Events arrive while a line is half typed: they print above it, and it stays intact.
        let half = "send frank-phone erin hel"
        shell.type(half)
        await shell.expectScreen("the half-typed line") { $0.cursorLine == "remote (2/2 connected)> " + half }
        try await server.server.backend.kick(appKey: TestServer.appKey, userIDs: ["erin"])
        _ = try await server.server.backend.publish(appKey: TestServer.appKey, from: "system", to: ["frank"], text: "ping")
        let screen = await shell.expectScreen("the kick and the message above the intact line") { screen in
            // The kick's line is longer than the terminal is wide: it wraps.
            screen.allLines.joined().contains(" remote/erin-phone kickedOfflineByOtherClient (6), error 31010 RC_CONN_KICKED_BY_OTHER_CLIENT: kicked")
                && screen.allLines.contains { $0.hasSuffix(" remote/frank-phone message from system: ping") }
                && screen.cursorLine == "remote (1/2 connected)> " + half
                && screen.column == "remote (1/2 connected)> ".count + half.count
        }
        #expect(screen.allLines.filter { $0.contains(half) }.count == 1, "no stale copies of the line")
        shell.type("lo there" + Key.enter)
        await shell.expectScreen("the message sent") { screen in
            screen.allLines.contains { $0.hasPrefix("remote/frank-phone → erin: sent, cid ") } && screen.showsOnly(prompt: "remote (1/2 connected)> ")
        }

        // A line holding a token is run but never written to the history file.
        let token = try await server.token(for: "frank")
        shell.type("send frank-phone erin \(token)" + Key.enter)
        await shell.expectScreen("the second message sent") { screen in
            screen.allLines.filter { $0.hasPrefix("remote/frank-phone → erin: sent, cid ") }.count == 2
        }

        // Ctrl-C ends a running command (here delivered as SIGINT: the test terminal is not
        // imsh's controlling one), and the rest of its line: `use dev` must not run.
        shell.type("wait frank-phone 6 --timeout 60; use dev" + Key.enter)
        await shell.expectScreen("the wait under way") { $0.cursorLine.isEmpty && $0.lineAboveCursor.hasSuffix("--timeout 60; use dev") }
        let interrupted = { (screen: ScreenModel) in
            screen.allLines.joined().contains("remote/frank-phone  connected (0) interrupted, not kickedOfflineByOtherClient (6)")
                && screen.showsOnly(prompt: "remote (1/2 connected)> ")
        }
        // The line is echoed before the command starts listening for Ctrl-C; on a busy machine
        // the first signal can land in between, so signal again until the wait ends.
        for _ in 0..<10 {
            shell.signal(SIGINT)
            if await shell.screenShows(within: .seconds(1), interrupted) { break }
        }
        let afterInterrupt = await shell.expectScreen("the wait interrupted", interrupted)
        #expect(!afterInterrupt.allLines.contains("active profile: dev"), "the rest of the line ran after Ctrl-C")

        shell.type("use d" + Key.tab)
        await shell.expectScreen("the profile completed") { $0.cursorLine == "remote (1/2 connected)> use dev" && $0.column == 32 }
        shell.type(Key.enter)
        await shell.expectScreen("dev active") { $0.allLines.contains("active profile: dev") && $0.showsOnly(prompt: "dev> ") }

        shell.type("quit" + Key.enter)
        await shell.expectScreen("the farewell") { $0.allLines.contains("disconnected 1 session; bye") }
        #expect(await shell.waitForExit() == 0)
        await server.stop()

        let historyPath = "\(sandbox.data)/history"
        var status = stat()
        #expect(stat(historyPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let history = try String(contentsOfFile: historyPath, encoding: .utf8)
        #expect(history.split(separator: "\n") == [
            "connect erin-phone frank-phone ", "send frank-phone erin hello there", "wait frank-phone 6 --timeout 60; use dev", "use dev ", "quit",
        ])
    }

    @Test func controlDQuitsAndColourHonoursNoColor() async throws {
        let sandbox = Sandbox()
        let shell = try InteractiveImsh(["--profiles", sandbox.profiles, "--data", sandbox.data], home: sandbox.home, environment: ["NO_COLOR": "1"])
        defer { shell.close() }
        await shell.expectScreen("the prompt") { $0.showsOnly(prompt: "dev> ") }
        shell.type("connect bob-phone" + Key.enter)
        await shell.expectScreen("connected") { $0.showsOnly(prompt: "dev (1/1 connected)> ") }
        shell.type(Key.controlD)
        await shell.expectScreen("the farewell") { $0.allLines.contains("disconnected 1 session; bye") }
        #expect(await shell.waitForExit() == 0)
        #expect(!String(decoding: shell.terminal.bytes, as: UTF8.self).contains("\u{1B}[1m"), "no colour with NO_COLOR")
    }

    @Test func terminationEndsTheShellAsQuitDoes() async throws {
        let sandbox = Sandbox()
        let shell = try InteractiveImsh(["--profiles", sandbox.profiles, "--data", sandbox.data], home: sandbox.home)
        defer { shell.close() }
        await shell.expectScreen("the prompt") { $0.showsOnly(prompt: "dev> ") }
        shell.type("connect bob-phone" + Key.enter)
        await shell.expectScreen("connected") { $0.showsOnly(prompt: "dev (1/1 connected)> ") }
        shell.type("wait bob-phone signOut --timeout 60" + Key.enter)
        await shell.expectScreen("the wait under way") { $0.cursorLine.isEmpty && $0.lineAboveCursor.hasSuffix("--timeout 60") }
        shell.signal(SIGTERM)
        #expect(await shell.waitForExit() == 0, "the running command is stopped and the shell ends cleanly")
    }
}
