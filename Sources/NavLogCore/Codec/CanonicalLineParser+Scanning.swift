#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension CanonicalLineParser {
    // MARK: Scanning

    /// The known key at `i` (its quotes and colon), moving past it.
    @inline(__always)
    mutating func matchKey() -> CanonicalKey? {
        if i + 17 <= n {
            guard let pattern = storage.keys.match(b, at: i) else { return nil }
            i += pattern.length
            return pattern.key
        }
        // Near the end of the line: the matcher reads 17 bytes, so it
        // looks at a padded copy.
        var padded: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let available = n - i
        return withUnsafeMutableBytes(of: &padded) { copy -> CanonicalKey? in
            copy.baseAddress!.copyMemory(from: base + i, byteCount: available)
            guard let pattern = storage.keys.match(UnsafeRawBufferPointer(copy), at: 0),
                  pattern.length <= available
            else { return nil }
            i += pattern.length
            return pattern.key
        }
    }

    /// Whether the bytes at `i` are `literal`.
    @inline(__always)
    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= n else { return false }
        let p = literal.utf8Start
        for k in 0..<count where base[i + k] != p[k] { return false }
        return true
    }

    /// A non-negative integer in its shortest digits (1 to 18 of them).
    @inline(__always)
    mutating func integer() -> Int? {
        let start = i
        var value = 0
        while i < n, i - start < 18 {
            let d = base[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            value = value &* 10 &+ Int(d)
            i += 1
        }
        guard i > start, i < n, base[i] &- UInt8(ascii: "0") >= 10 else { return nil }
        // No leading zero, but a lone 0.
        if base[start] == UInt8(ascii: "0") && i - start > 1 { return nil }
        return value
    }

    /// `[]` or `["S","S",…]` at `i`, each string as ``string()`` reads it:
    /// the range of the array, brackets included, with `i` moved past it.
    @inline(__always)
    mutating func stringArray() -> Range<Int>? {
        let start = i
        guard i < n, base[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        if i < n, base[i] == UInt8(ascii: "]") {
            i += 1
            return start..<i
        }
        while true {
            guard string() != nil, i < n else { return nil }
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "]") else { return nil }
            i += 1
            return start..<i
        }
    }

    /// The strings of an array that ``stringArray()`` read at `range` of
    /// `line` (`[]` or `["A","B",…]`, no escapes, no string empty), through
    /// the name cache.
    static func strings(ofArray range: Range<Int>, in line: UnsafeRawBufferPointer, names: StringInterner) -> [String] {
        var strings: [String] = []
        // Sized once: a quote pair a string (none holds an escaped quote).
        var quotes = 0
        for k in range where line[k] == UInt8(ascii: "\"") { quotes += 1 }
        strings.reserveCapacity(quotes / 2)
        var k = range.lowerBound + 1
        while k < range.upperBound - 1 {
            var close = k + 1
            while line[close] != UInt8(ascii: "\"") { close += 1 }
            strings.append(names.string(UnsafeRawBufferPointer(rebasing: line[(k + 1)..<close])))
            k = close + 2
        }
        return strings
    }

    /// A non-empty string of printable ASCII without escapes at `i`: the
    /// range of its characters, with `i` moved past its closing quote.
    @inline(__always)
    mutating func string() -> Range<Int>? {
        guard i < n, base[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var k = PlainStringRun.end(in: UnsafeRawPointer(base), count: n, from: start)
        while k < n {
            let c = base[k]
            if c == UInt8(ascii: "\"") { break }
            guard c >= 0x20, c < 0x80, c != UInt8(ascii: "\\") else { return nil }
            k += 1
        }
        guard k < n, base[k] == UInt8(ascii: "\""), k > start else { return nil }
        i = k + 1
        return start..<k
    }

    /// `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}` at `i`, or either
    /// with a first member `"data":DATA` written as the canonical writer
    /// writes it.
    @inline(__always)
    mutating func routeValue() -> RouteValue? {
        var data: JSONValue? = nil
        if matches(#"{"data":"#) {
            i += 8
            guard let value = dataValue(), i < n, base[i] == UInt8(ascii: ",") else { return nil }
            data = value
        } else {
            guard i < n, base[i] == UInt8(ascii: "{") else { return nil }
        }
        // Past the `{`, or the `,` after the data.
        i += 1
        guard let (id, type) = routeIdentity() else { return nil }
        return RouteValue(type: string(type), id: id.map { string($0) }, data: data)
    }

    /// A route value at `i`, kept as ranges (summarizing), its `data`, if
    /// any, in the storage's ``LineParserStorage/routeData``.
    @inline(__always)
    mutating func routeRanges() -> Bool {
        var data: Int32 = -1
        if matches(#"{"data":"#) {
            i += 8
            guard let value = dataValue(), i < n, base[i] == UInt8(ascii: ",") else { return false }
            storage.routeData.append(value)
            data = Int32(storage.routeData.count - 1)
        } else {
            guard i < n, base[i] == UInt8(ascii: "{") else { return false }
        }
        // Past the `{`, or the `,` after the data.
        i += 1
        guard let (id, type) = routeIdentity() else { return false }
        let ranges = RouteRanges(typeStart: Int32(type.lowerBound), typeEnd: Int32(type.upperBound),
                                 idStart: Int32(id?.lowerBound ?? 0), idEnd: Int32(id?.upperBound ?? 0), data: data)
        storage.setRouteRanges(ranges, at: routeCount)
        routeCount += 1
        return true
    }

    /// `"id":"ID","type":"TYPE"}` or `"type":"TYPE"}` at `i`, the rest of a
    /// route value: where its id and type are, with `i` moved past it.
    @inline(__always)
    mutating func routeIdentity() -> (id: Range<Int>?, type: Range<Int>)? {
        var id: Range<Int>? = nil
        if matches(#""id":"#) {
            i += 5
            guard let range = string(), matches(#","type":"#) else { return nil }
            id = range
            i += 8
        } else if matches(#""type":"#) {
            i += 7
        } else {
            return nil
        }
        guard let type = string(), i < n, base[i] == UInt8(ascii: "}") else { return nil }
        i += 1
        return (id, type)
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`.
    mutating func routeArray() -> [RouteValue]? {
        var out: [RouteValue] = []
        let read = routeList { parser in
            guard let value = parser.routeValue() else { return false }
            out.append(value)
            return true
        }
        return read ? out : nil
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`, kept as ranges (summarizing).
    mutating func routeRangesArray() -> Bool {
        routeList { parser in parser.routeRanges() }
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`, each route read by `element`.
    @inline(__always)
    mutating func routeList(_ element: (inout CanonicalLineParser) -> Bool) -> Bool {
        elements(element)
    }
}
