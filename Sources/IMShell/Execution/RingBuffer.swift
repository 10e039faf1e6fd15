/// The latest `capacity` elements appended, oldest first, at a constant cost per append.
struct RingBuffer<Element> {
    let capacity: Int
    private var storage: [Element] = []
    private var start = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[start] = element
            start = (start + 1) % capacity
        }
    }

    /// The elements, oldest first.
    var elements: [Element] {
        Array(storage[start...] + storage[..<start])
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
