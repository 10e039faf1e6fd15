/// The data types a property value can have.
public enum PropertyValueType: Hashable, Sendable {
    case byte
    case twoByteInteger
    case fourByteInteger
    case variableByteInteger
    case utf8String
    case binaryData
    case utf8StringPair
}

/// A property's value, in one of the standard's data types.
public enum PropertyValue: Hashable, Sendable {
    case byte(UInt8)
    case twoByteInteger(UInt16)
    case fourByteInteger(UInt32)
    case variableByteInteger(UInt32)
    case string(String)
    case binary([UInt8])
    case stringPair(name: String, value: String)

    public var type: PropertyValueType {
        switch self {
        case .byte: return .byte
        case .twoByteInteger: return .twoByteInteger
        case .fourByteInteger: return .fourByteInteger
        case .variableByteInteger: return .variableByteInteger
        case .string: return .utf8String
        case .binary: return .binaryData
        case .stringPair: return .utf8StringPair
        }
    }
}
