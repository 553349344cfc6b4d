/// A short, fixed list of names of 1 to 16 bytes, each with a value, looked
/// up by comparing their ``ShortBytes`` words (three comparisons a name, no
/// byte loop): the event kinds' names and the known field names.
struct ShortNames<Value> {
    private let entries: [(w0: UInt64, w1: UInt64, count: Int, value: Value)]

    init(_ names: [(String, Value)]) {
        entries = names.map { name, value in
            var name = name
            let (w0, w1) = name.withUTF8 { ShortBytes.words(UnsafeRawBufferPointer($0)) }
            return (w0, w1, name.utf8.count, value)
        }
    }

    /// The value of the name these bytes spell, if any.
    @inline(__always)
    func find(_ raw: UnsafeRawBufferPointer) -> Value? {
        let n = raw.count
        guard n > 0, n <= ShortBytes.maxCount else { return nil }
        let (w0, w1) = ShortBytes.words(raw)
        for entry in entries where entry.count == n && entry.w0 == w0 && entry.w1 == w1 { return entry.value }
        return nil
    }

    /// The value of this name, if any.
    func find(_ name: String) -> Value? {
        var name = name
        return name.withUTF8 { find(UnsafeRawBufferPointer($0)) }
    }
}

extension ShortNames: Sendable where Value: Sendable {}
