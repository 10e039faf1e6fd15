extension LineEditor {
    /// How the editor looks and behaves.
    ///
    /// Every closure runs on the editor thread, while the user waits for the screen (and other
    /// editors in the process wait for libedit): keep them quick, never block in them, and do
    /// not close an editor from them.
    public struct Options: Sendable {
        /// The prompt, such as `dev (2/5)> `. Asked for when a line starts, when messages are
        /// printed above it and after `refreshPrompt()`. ANSI escape sequences (colours) are
        /// allowed anywhere: the editor hides them from libedit's cursor arithmetic. A sequence
        /// at the very end applies from the last visible character on (libedit needs a visible
        /// character after each hidden run). The prompt must fit on one line and hold no newline.
        public var prompt: @Sendable () -> String
        /// Candidates for TAB, given the line before the cursor. A candidate replaces the word
        /// being typed: the text after the last space or tab before the cursor. `nil` leaves TAB
        /// to libedit.
        public var completion: (@Sendable (_ lineBeforeCursor: String) -> [String])?
        /// Where accepted lines are kept between runs; `nil` keeps history in memory only.
        public var historyFile: String?
        /// How many entries history keeps, in memory and in the file.
        public var historyLimit: Int
        /// Decides whether an accepted line is recorded in history (memory and file): return
        /// false for lines holding a token or password. Lines the filter rejects are also
        /// dropped from the history file when it is loaded. Blank lines are never recorded.
        public var historyFilter: (@Sendable (_ line: String) -> Bool)?
        /// The terminal type to use instead of `$TERM`, such as `xterm`.
        public var terminalType: String?
        /// How long messages wait after ESC or Ctrl-X for the rest of a key sequence, so that
        /// printing them never splits a sequence such as ESC b.
        public var keySequenceHold: Duration = .milliseconds(500)

        public init(
            prompt: @escaping @Sendable () -> String = { "> " },
            completion: (@Sendable (_ lineBeforeCursor: String) -> [String])? = nil,
            historyFile: String? = nil,
            historyLimit: Int = 1000,
            historyFilter: (@Sendable (_ line: String) -> Bool)? = nil,
            terminalType: String? = nil
        ) {
            self.prompt = prompt
            self.completion = completion
            self.historyFile = historyFile
            self.historyLimit = max(1, historyLimit)
            self.historyFilter = historyFilter
            self.terminalType = terminalType
        }
    }
}
