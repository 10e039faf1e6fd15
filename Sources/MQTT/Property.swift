/// One property: an identifier and a value of the type the standard gives it.
///
/// Build them with the static factories, such as `.sessionExpiryInterval(3600)`
/// or `.userProperty("im-platform", "pc")`, which cannot get the type wrong.
public struct Property: Hashable, Sendable, CustomStringConvertible {
    public let identifier: PropertyIdentifier
    public let value: PropertyValue

    /// A property from an identifier and a value; throws if the value has the wrong type
    /// or the identifier is not one the standard defines.
    public init(_ identifier: PropertyIdentifier, _ value: PropertyValue) throws(MQTTError) {
        guard let definition = identifier.definition else {
            throw .malformed("\(identifier) is not an MQTT 5 property")
        }
        guard definition.valueType == value.type else {
            throw .malformed("\(identifier) takes a \(definition.valueType), not a \(value.type)")
        }
        self.init(unchecked: identifier, value)
    }

    init(unchecked identifier: PropertyIdentifier, _ value: PropertyValue) {
        self.identifier = identifier
        self.value = value
    }

    public var description: String {
        switch value {
        case .byte(let byte): return "\(identifier)=\(byte)"
        case .twoByteInteger(let number): return "\(identifier)=\(number)"
        case .fourByteInteger(let number), .variableByteInteger(let number): return "\(identifier)=\(number)"
        case .string(let string): return "\(identifier)=\"\(string)\""
        case .binary(let bytes): return "\(identifier)=<\(bytes.count) bytes>"
        case .stringPair(let name, let value): return "\(identifier) \"\(name)\"=\"\(value)\""
        }
    }
}
