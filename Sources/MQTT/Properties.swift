/// The properties of a packet, kept in the order they were added or received.
///
/// User properties (and, in PUBLISH, subscription identifiers) may repeat; the
/// typed accessors replace or remove a single-use property wherever it stands.
/// Nothing here stops you from adding a property a packet does not allow:
/// `validate(in:)` and `Packet.validate()` check that, and decoding rejects it.
public struct Properties: Hashable, Sendable, RandomAccessCollection, ExpressibleByArrayLiteral, CustomStringConvertible {
    public private(set) var elements: [Property]

    public init() { elements = [] }
    public init(_ elements: [Property]) { self.elements = elements }
    public init(arrayLiteral elements: Property...) { self.elements = elements }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Property { elements[position] }

    public mutating func reserveCapacity(_ count: Int) {
        elements.reserveCapacity(count)
    }

    public mutating func append(_ property: Property) {
        elements.append(property)
    }

    /// Removes every property with this identifier.
    public mutating func removeAll(_ identifier: PropertyIdentifier) {
        elements.removeAll { $0.identifier == identifier }
    }

    /// The value of the first property with this identifier.
    public func first(_ identifier: PropertyIdentifier) -> PropertyValue? {
        elements.first { $0.identifier == identifier }?.value
    }

    /// The values of every property with this identifier, in order.
    public func all(_ identifier: PropertyIdentifier) -> [PropertyValue] {
        elements.compactMap { $0.identifier == identifier ? $0.value : nil }
    }

    /// Puts `property` where the first one with its identifier stands (or at the end)
    /// and drops any others with that identifier.
    public mutating func replace(with property: Property) {
        guard let index = elements.firstIndex(where: { $0.identifier == property.identifier }) else {
            elements.append(property)
            return
        }
        elements[index] = property
        var position = elements.index(after: index)
        while position < elements.endIndex {
            if elements[position].identifier == property.identifier {
                elements.remove(at: position)
            } else {
                position += 1
            }
        }
    }

    /// Checks the rules decoding applies: each property is defined, allowed in
    /// `context`, has a legal value, and single-use ones appear once.
    public func validate(in context: PropertyContext) throws(MQTTError) {
        var seen: UInt64 = 0
        for property in elements {
            try Self.check(property, in: context, seen: &seen)
        }
    }

    /// Checks one property against everything before it, as decoding does.
    static func check(_ property: Property, in context: PropertyContext, seen: inout UInt64) throws(MQTTError) {
        let identifier = property.identifier
        guard let definition = identifier.definition else {
            throw .malformed("unknown property identifier 0x\(String(identifier.rawValue, radix: 16))")
        }
        guard definition.contexts.contains(context) else {
            throw .malformed("\(identifier) is not allowed in \(context)")
        }
        guard definition.valueType == property.value.type else {
            throw .malformed("\(identifier) takes a \(definition.valueType), not a \(property.value.type)")
        }
        if let problem = identifier.problem(with: property.value) {
            throw .protocolError(problem)
        }
        let bit: UInt64 = 1 << identifier.rawValue
        if seen & bit != 0 && !definition.repeatableIn.contains(context) {
            throw .protocolError("\(identifier) appears more than once")
        }
        seen |= bit
    }

    public var description: String {
        "[" + elements.map(\.description).joined(separator: ", ") + "]"
    }
}
