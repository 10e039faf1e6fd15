/// Why a bench could not run or finish; printed as one line after `imsh bench:`.
package struct BenchError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
