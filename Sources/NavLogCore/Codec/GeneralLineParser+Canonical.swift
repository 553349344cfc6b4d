#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension GeneralLineParser {
    // MARK: Canonical form

    /// Whether the decoded fields are written back exactly as they appear:
    /// `seq` and `t` in their canonical forms, strings without escapes, plain
    /// integers, and `meta`, objects and arrays exactly as ``CanonicalWriter``
    /// writes them again (restored states are not checked: never canonical).
    func fieldsAreCanonical(_ spec: KindSpec, _ f: KindFields, meta: [String: JSONValue]?) -> Bool {
        guard early.seq != nil, early.t != nil, escaped & present == 0 else { return false }
        if has(.cause), !plainInteger(.cause) { return false }
        if let meta, !writesBack(.meta, { $0.write(object: meta) }) { return false }
        for field in spec.fields where has(field.key) {
            let key = field.key
            switch field.valueType {
            case .text, .enumeration, .bool, .timestamp: continue  // strings: no escapes (above)
            case .integer, .positiveInteger: if !plainInteger(key) { return false }
            case .route: if !early.routeIsCanonical { return false }
            case .routes: if !writesBack(key, { $0.write(f.routes!) }) { return false }
            case .strings: if !writesBack(key, { $0.write(.array(f.strings(key)!.map { .string($0) })) }) { return false }
            case .sections: if !writesBack(key, { $0.write(f.sections!) }) { return false }
            case .object: if !writesBack(key, { $0.write(object: f.object(key)!) }) { return false }
            case .restoredState: return false
            }
        }
        return true
    }

    /// Whether field `key`'s value in the line is exactly what `write` writes.
    func writesBack(_ key: CanonicalKey, _ write: (inout CanonicalWriter) -> Void) -> Bool {
        let slot = slots[key.rawValue]
        return writesBack(Int(slot.start)..<Int(slot.end), write)
    }

    /// Whether the line's bytes in `range` are exactly what `write` writes.
    func writesBack(_ range: Range<Int>, _ write: (inout CanonicalWriter) -> Void) -> Bool {
        let start = range.lowerBound, end = range.upperBound
        storage.scratch.reset()
        write(&storage.scratch)
        return storage.scratch.bytes.count == end - start && storage.scratch.bytes.withUnsafeBytes { written in
            memcmp(written.baseAddress!, r.bytes.baseAddress! + start, end - start) == 0
        }
    }

    /// Whether a field's integer is written as its canonical digits (no sign, no leading zero).
    func plainInteger(_ key: CanonicalKey) -> Bool {
        let slot = slots[key.rawValue]
        let start = Int(slot.start), end = Int(slot.end)
        guard end > start, !slot.isString else { return false }
        if r.bytes[start] == UInt8(ascii: "0") { return end - start == 1 }
        for k in start..<end where r.bytes[k] &- UInt8(ascii: "0") >= 10 { return false }
        return true
    }

    /// Whether a value is a scalar the canonical writer writes as these very bytes.
    static func isCanonicalScalar(_ value: JSONValue, _ raw: Slice<UnsafeRawBufferPointer>) -> Bool {
        switch value {
        case .string: return !raw.contains(UInt8(ascii: "\\"))
        case .bool, .number: return true
        default: return false
        }
    }

    /// Whether `raw` is exactly `{"id":"ID","type":"TYPE"}` (or `{"type":"TYPE"}`)
    /// for this route, which was decoded from it (a route with data is
    /// written again and compared instead).
    static func isCanonicalRoute(_ route: RouteValue, _ raw: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard route.data == nil,
              memchr(raw.base.baseAddress! + raw.startIndex, Int32(UInt8(ascii: "\\")), raw.count) == nil
        else { return false }
        // Without escapes, each string's bytes in the line are its UTF-8.
        let typeBytes = route.type.utf8.count
        let base = raw.startIndex
        func has(_ literal: StaticString, at offset: Int) -> Bool {
            let n = literal.utf8CodeUnitCount
            return memcmp(raw.base.baseAddress! + base + offset, literal.utf8Start, n) == 0
        }
        if let id = route.id {
            let idBytes = id.utf8.count
            return raw.count == 19 + idBytes + typeBytes && has(#"{"id":""#, at: 0)
                && has(#"","type":""#, at: 7 + idBytes) && has(#""}"#, at: raw.count - 2)
        }
        return raw.count == 11 + typeBytes && has(#"{"type":""#, at: 0) && has(#""}"#, at: raw.count - 2)
    }

    /// Whether the key bytes `b` sort strictly after the key bytes `a`.
    @inline(__always)
    static func ascending(_ a: Range<Int>, _ b: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Bool {
        let n = min(a.count, b.count)
        let order = memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, n)
        return order < 0 || (order == 0 && a.count < b.count)
    }
}
