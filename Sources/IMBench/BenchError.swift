/// Why a bench could not run or finish; printed as one line after `imsh bench:`.
struct BenchError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
