/// Bytes received and not yet parsed, with the search state for the end of a head.
struct MessageBuffer {
    private(set) var bytes: [UInt8] = []
    /// The index of the first unconsumed byte.
    private(set) var start = 0
    /// How far from `start` the search for a blank line has already looked.
    private var scanned = 0

    var count: Int { bytes.count - start }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ new: some Sequence<UInt8>) {
        bytes.append(contentsOf: new)
    }

    /// The next `count` bytes, consumed.
    mutating func take(_ count: Int) -> [UInt8] {
        let taken = Array(bytes[start..<start + count])
        consume(count)
        return taken
    }

    mutating func consume(_ count: Int) {
        start += count
        scanned = 0
        // Reclaim consumed space once it dominates, so pipelined traffic does not grow the array.
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 && start > bytes.count / 2 {
            bytes.removeFirst(start)
            start = 0
        }
    }

    /// Drops empty lines (CRLF or LF) in front of a message, as RFC 9112 §2.2 allows.
    mutating func skipLeadingEmptyLines() {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                index += 1
            } else if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 2
            } else {
                break
            }
        }
        if index > start { consume(index - start) }
    }

    /// The length of the head (through its blank line) if it has fully arrived.
    ///
    /// Lines end in LF, optionally preceded by CR. Resumes where the last call stopped.
    mutating func headLength() -> Int? {
        var index = start + scanned
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let next = index + 1
                if next < bytes.count, bytes[next] == 0x0A {
                    return next + 1 - start
                }
                if next + 1 < bytes.count, bytes[next] == 0x0D, bytes[next + 1] == 0x0A {
                    return next + 2 - start
                }
                if next + 1 >= bytes.count {
                    break  // the blank line may still be arriving
                }
            }
            index += 1
        }
        scanned = index - start
        return nil
    }

    /// The first line ending in LF at or after `start` + `offset`: its length without the line end, and the total.
    func line(from offset: Int) -> (content: ArraySlice<UInt8>, consumed: Int)? {
        var index = start + offset
        while index < bytes.count {
            if bytes[index] == 0x0A {
                var end = index
                if end > start + offset, bytes[end - 1] == 0x0D { end -= 1 }
                return (bytes[(start + offset)..<end], index + 1 - start - offset)
            }
            index += 1
        }
        return nil
    }

    /// The unconsumed bytes from `offset` to `offset + count`.
    func slice(from offset: Int, count: Int) -> ArraySlice<UInt8> {
        bytes[(start + offset)..<(start + offset + count)]
    }
}
