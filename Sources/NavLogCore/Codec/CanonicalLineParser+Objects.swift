#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension CanonicalLineParser {
    /// A route's `data` at `i`, when it is exactly what the canonical writer
    /// writes for it (the general parser's check: written again, compared).
    /// `null` is left to the general parser, which reads it as no data.
    mutating func dataValue() -> JSONValue? {
        // A flat object is checked as it is read, then read as a value.
        let start = i
        if flatMetaObject() { return flatObjectValue(start..<i) }
        var reader = JSONReader(b, at: i, maxDepth: Self.metaDepth)
        guard i < n, base[i] != UInt8(ascii: "n"), let value = try? reader.parseValue() else { return nil }
        let length = reader.i - i
        storage.scratch.reset()
        storage.scratch.write(value)
        guard writtenAgain(length) else { return nil }
        i += length
        return value
    }

    /// Whether the `length` bytes at `i` are what the scratch writer holds.
    @inline(__always)
    func writtenAgain(_ length: Int) -> Bool {
        storage.scratch.bytes.count == length && storage.scratch.bytes.withUnsafeBytes { written in
            memcmp(written.baseAddress!, base + i, length) == 0
        }
    }

    /// A `meta` object at `i`, when it is exactly what the canonical writer
    /// writes for it (the general parser's check: written again, compared).
    mutating func metaObject() -> [String: JSONValue]? {
        guard i < n, base[i] == UInt8(ascii: "{") else { return nil }
        var reader = JSONReader(b, at: i, maxDepth: Self.metaDepth)
        guard let members = try? reader.parseObjectMembers() else { return nil }
        let length = reader.i - i
        storage.scratch.reset()
        storage.scratch.write(object: members)
        guard writtenAgain(length) else { return nil }
        i += length
        return members
    }

    /// The members of an object at `i` (`meta`, `app`, `device`) that is
    /// exactly what the canonical writer writes for it: a flat one read as
    /// it is checked (``flatMetaObject()``), any other through
    /// ``metaObject()``.
    mutating func objectMembers() -> [String: JSONValue]? {
        let start = i
        if flatMetaObject(), case .object(let members) = flatObjectValue(start..<i) { return members }
        return metaObject()
    }

    /// A flat `meta` object at `i` (summarizing): plain keys in ascending
    /// order, each with a plain string, a number, `true`, `false` or `null`
    /// — exactly what the canonical writer writes for it, checked as it is
    /// read. `false`, with `i` where it was, for any other object, which
    /// ``metaObject()`` then checks by writing it again.
    mutating func flatMetaObject() -> Bool {
        let start = i
        if members({ parser, _ in parser.plainScalar() }) { return true }
        i = start
        return false
    }

    /// The value of the object at `range`, which ``flatMetaObject()`` has
    /// read: plain keys, each with a plain string or a scalar.
    func flatObjectValue(_ range: Range<Int>) -> JSONValue {
        var k = range.lowerBound + 1
        let end = range.upperBound - 1
        // Room for every member at once: at most one more than the commas.
        var commas = 0
        for j in k..<max(k, end) where base[j] == UInt8(ascii: ",") { commas += 1 }
        var members: [String: JSONValue] = k < end ? Dictionary(minimumCapacity: commas + 1) : [:]
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
        }
        while k < end {
            // `"key":`, then the value up to the next `,` or the closing `}`.
            var keyEnd = k + 1
            while base[keyEnd] != UInt8(ascii: "\"") { keyEnd += 1 }
            let key = text(k + 1, keyEnd)
            var v = keyEnd + 2
            let value: JSONValue
            if base[v] == UInt8(ascii: "\"") {
                var close = v + 1
                while base[close] != UInt8(ascii: "\"") { close += 1 }
                value = .string(text(v + 1, close))
                v = close + 1
            } else {
                let start = v
                while v < end, base[v] != UInt8(ascii: ",") { v += 1 }
                switch base[start] {
                case UInt8(ascii: "t"): value = .bool(true)
                case UInt8(ascii: "f"): value = .bool(false)
                case UInt8(ascii: "n"): value = .null
                default: value = .number(text(start, v))
                }
            }
            members[key] = value
            k = v + 1
        }
        return .object(members)
    }

    /// A member whose key navlog does not know at `i` (summarizing): a
    /// plain key and a value the canonical writer writes as it is read
    /// (``plainScalar()``), but `null`, which the event drops. Where the
    /// key's name is, with `i` past the value; `nil` for anything else.
    mutating func unknownMember() -> Range<Int>? {
        guard let name = string(), i + 1 < n, base[i] == UInt8(ascii: ":"),
              base[i + 1] != UInt8(ascii: "n") else { return nil }
        i += 1
        return plainScalar() ? name : nil
    }

    /// A plain string, a number, `true`, `false` or `null` at `i`: a value
    /// the canonical writer writes exactly as it is read. Moves past it;
    /// `false` (with `i` somewhere in it) for anything else.
    @inline(__always)
    mutating func plainScalar() -> Bool {
        guard i < n else { return false }
        switch base[i] {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            if matches("true") || matches("null") {
                i += 4
            } else if matches("false") {
                i += 5
            } else {
                return false
            }
            return true
        default:
            var reader = JSONReader(b, at: i)
            guard (try? reader.scanNumber()) != nil else { return false }
            i = reader.i
            return true
        }
    }

    /// Whether the bytes at `b` sort strictly after the name of `a`.
    func ascending(_ a: CanonicalKey, _ b: Range<Int>) -> Bool {
        let name = UnsafeRawBufferPointer(rebasing: self.b[b])
        return a.name.utf8.lexicographicallyPrecedes(name)
    }

    /// Whether the bytes at `b` sort strictly after those at `a` (the
    /// canonical writer's key order: by UTF-8 bytes).
    @inline(__always)
    func ascending(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let common = min(a.count, b.count)
        let order = memcmp(base + a.lowerBound, base + b.lowerBound, common)
        return order < 0 || (order == 0 && a.count < b.count)
    }
}
