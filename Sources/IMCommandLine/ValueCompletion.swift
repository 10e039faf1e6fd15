/// What shell completion offers for an option's value or a command's arguments.
///
/// Options get one from their value's placeholder unless they say otherwise (see
/// `OptionSpec.init`): `DIR` completes directories, `FILE` and `SCRIPT` files, `a|b` the words.
public enum ValueCompletion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// File names.
    case files
    /// Directory names.
    case directories
    /// These words.
    case words([String])
    /// The lines the program itself prints when run with `arguments`, plus each option of
    /// `forwarding` that the line being completed gives (so that `--profiles DIR -p <Tab>`
    /// lists DIR's profiles): the program knows its own search order, the script does not.
    case program(arguments: [String], forwarding: [String])

    /// The completion a value placeholder implies.
    static func implied(by valueName: String?) -> ValueCompletion {
        guard let valueName else { return .none }
        switch valueName {
        case "DIR": return .directories
        case "FILE", "SCRIPT": return .files
        default:
            let words = valueName.split(separator: "|").map(String.init)
            return words.count > 1 && !valueName.contains(" ") ? .words(words) : .none
        }
    }
}
