/// A name and its value: one header field, or one form field.
public struct NamedValue: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
