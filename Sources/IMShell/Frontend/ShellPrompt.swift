/// The REPL's prompt: the active profile, and how many of its sessions are connected.
///
/// `dev> ` before any connect, `dev (2/3 connected)> ` after. Asked for on the line editor's
/// thread: it reads only the context and the book, both quick.
public struct ShellPrompt: Sendable {
    let context: ShellContext
    let book: SessionBook
    let style: TerminalStyle

    public init(context: ShellContext, book: SessionBook, style: TerminalStyle) {
        self.context = context
        self.book = book
        self.style = style
    }

    public func text() -> String {
        guard let profile = context.activeProfile else { return "imsh> " }
        let (connected, sessions) = book.counts(profile: profile)
        guard sessions > 0 else { return "\(style.bold(style.cyan(profile)))> " }
        let count = "\(connected)/\(sessions) connected"
        let painted = connected == sessions ? style.green(count) : connected == 0 ? style.red(count) : style.yellow(count)
        return "\(style.bold(style.cyan(profile))) (\(painted))> "
    }
}
