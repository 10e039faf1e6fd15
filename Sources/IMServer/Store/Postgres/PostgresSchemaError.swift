/// A database whose schema this program cannot use.
enum PostgresSchemaError: Error, CustomStringConvertible {
    case newer(version: Int64, known: Int)

    var description: String {
        switch self {
        case let .newer(version, known):
            return "its schema is version \(version), newer than this imserver knows (\(known)); upgrade imserver"
        }
    }
}
