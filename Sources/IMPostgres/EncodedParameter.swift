import CPQ
#if canImport(Glibc)
import Glibc
#endif

/// A parameter in the form PQexecParams takes: a malloc'd buffer (freed by `free()`), its
/// length, text or binary format, and its type (0: let the server infer it).
struct EncodedParameter {
    let pointer: UnsafeMutablePointer<CChar>?
    let length: Int32
    let format: Int32
    let type: Oid

    /// The `bytea` type's OID, for bytes sent in binary.
    static let byteaType: Oid = 17

    init(_ value: PostgresValue) {
        type = Self.type(of: value)
        switch value {
        case .null:
            (pointer, length, format) = (nil, 0, 0)
        case .text(let text):
            (pointer, length, format) = (strdup(text), 0, 0)
        case .integer(let number):
            (pointer, length, format) = (strdup(String(number)), 0, 0)
        case .boolean(let flag):
            (pointer, length, format) = (strdup(flag ? "t" : "f"), 0, 0)
        case .bytes(let bytes):
            // malloc(0) may return nil, which libpq would read as NULL: allocate at least one byte.
            let buffer = malloc(max(bytes.count, 1))!.assumingMemoryBound(to: CChar.self)
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress { memcpy(buffer, base, bytes.count) }
            }
            (pointer, length, format) = (buffer, Int32(bytes.count), 1)
        }
    }

    /// The type `value` is sent as: bytes as `bytea`, the rest inferred by the server.
    static func type(of value: PostgresValue) -> Oid {
        if case .bytes = value { return byteaType }
        return 0
    }

    func free() {
        Glibc.free(pointer)
    }
}
