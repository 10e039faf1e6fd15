/// The body DISCONNECT and AUTH share: a reason code and properties, both of
/// which may be left out.
enum ReasonCodeAndProperties {
    /// An empty body means success without properties; a lone reason code means no properties.
    static func decode(from reader: inout ByteReader, in context: PropertyContext) throws(MQTTError) -> (ReasonCode, Properties) {
        let reasonCode = reader.isAtEnd ? ReasonCode.success : ReasonCode(try reader.readUInt8())
        let properties = reader.isAtEnd ? Properties() : try Properties.decode(from: &reader, in: context)
        return (reasonCode, properties)
    }

    /// Leaves out both for success without properties; with `mayOmitProperties`
    /// (DISCONNECT), leaves out an empty property length too.
    static func encode(_ reasonCode: ReasonCode, _ properties: Properties, mayOmitProperties: Bool, into writer: inout ByteWriter) {
        if reasonCode == .success && properties.isEmpty { return }
        writer.writeUInt8(reasonCode.rawValue)
        if mayOmitProperties && properties.isEmpty { return }
        properties.encode(into: &writer)
    }
}
