import Foundation
import Testing
import TestSupport

/// Ctrl-L in the REPL: the screen is cleared, the prompt and the half-typed line drawn again at the top.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ClearScreenTests {
    @Test func controlLClearsTheScreenAndKeepsTheLine() async throws {
        let sandbox = Sandbox()
        let shell = try InteractiveImsh(["--profiles", sandbox.profiles, "--data", sandbox.data], home: sandbox.home)
        defer { shell.close() }
        await shell.expectScreen("the banner and prompt") { $0.showsOnly(prompt: "dev> ") }
        shell.type("profiles" + Key.enter)
        // Typing before the prompt is back would be echoed by the terminal, not by the editor.
        await shell.expectScreen("the profiles listed and the prompt back") { screen in
            screen.allLines.contains { $0.contains("prod appKey=") } && screen.cursorLine.hasPrefix("dev>") && screen.column == 5
        }
        shell.type("status ali")
        await shell.expectScreen("the half-typed line") { $0.cursorLine == "dev> status ali" }
        shell.type("\u{0C}")
        let screen = await shell.expectScreen("a clear screen with the line at the top") { screen in
            screen.row == 0 && screen.cursorLine == "dev> status ali" && screen.allLines.dropFirst().allSatisfy(\.isEmpty)
        }
        #expect(screen.column == "dev> status ali".count)
        shell.type("ce-phone" + Key.enter)
        await shell.expectScreen("the line still runs") { $0.allLines.contains { $0.hasPrefix("dev/alice-phone") } }
    }
}
