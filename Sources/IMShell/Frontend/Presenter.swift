import IMConfig

/// Renders results, events and diagnostics in the chosen format, redacts secrets, and writes.
public final class Presenter: Sendable {
    public enum Format: Sendable {
        case text(TextRenderer)
        case json
    }

    public let format: Format
    let redactor: SecretRedactor
    let output: any ShellOutput

    public init(format: Format, redactor: SecretRedactor, output: any ShellOutput) {
        self.format = format
        self.redactor = redactor
        self.output = output
    }

    public var isJSON: Bool {
        if case .json = format { return true }
        return false
    }

    /// A command's result; in text, a failed one goes to standard error.
    public func show(_ result: CommandResult) {
        switch format {
        case .text(let renderer):
            let text = renderer.render(result)
            if !text.isEmpty { write(text, isError: !result.ok) }
        case .json:
            write(JSONRenderer().render(result), isError: false)
        }
    }

    public func show(_ event: ShellEvent) {
        switch format {
        case .text(let renderer): write(renderer.render(event), isError: false)
        case .json: write(JSONRenderer().render(event), isError: false)
        }
    }

    /// A line for people (banner, farewell); JSON output leaves it out.
    public func note(_ text: String) {
        if case .text = format { write(text, isError: false) }
    }

    private func write(_ text: String, isError: Bool) {
        output.write(redactor.redact(text), isError: isError)
    }
}
