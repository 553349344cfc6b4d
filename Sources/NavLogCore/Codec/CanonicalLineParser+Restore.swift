#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension CanonicalLineParser {
    // MARK: `state.restore`'s state, checked without being built

    /// Whether the `state` object at `i` is one ``SceneState/decodeRestore(_:)``
    /// accepts, checked in one layout without building it (moving `i` past
    /// it): keys in ascending byte order (so none twice) among `modals`,
    /// `screen`, `sizeClass`, `splits`, `stacks`, `tabs`; `null` only where
    /// `decodeRestore` reads it as absent (an optional member); strings
    /// of printable ASCII without escapes, not empty; route values as
    /// `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}`; in a modal only
    /// `modal` and `style`, in a split only its columns and `visibility`, in
    /// `tabs` only `hidden`, `order` and `selected`. Anything else (which
    /// `decodeRestore` may well accept) is `false`: the general parser decides.
    mutating func restoredState() -> Bool {
        members { parser, key in
            let known = ["modals", "screen", "sizeClass", "splits", "stacks", "tabs"] as [StaticString]
            if parser.null() { return known.contains { parser.named(key, $0) } }
            if parser.named(key, "modals") {
                return parser.elements { modal in
                    var named = false
                    let valid = modal.members { p, k in
                        if p.named(k, "modal") { named = true; return p.string() != nil }
                        return p.named(k, "style") && (p.null() || p.enumerationValue(ModalStyle.self))
                    }
                    return valid && named
                }
            }
            if parser.named(key, "screen") { return parser.string() != nil }
            if parser.named(key, "sizeClass") { return parser.enumerationValue(SizeClass.self) }
            if parser.named(key, "splits") {
                return parser.members { p, _ in
                    p.members { q, k in
                        if q.named(k, "visibility") { return q.null() || q.enumerationValue(SplitVisibility.self) }
                        return q.isName(k, of: SplitColumn.self) && (q.null() || q.elements { $0.plainRoute() })
                    }
                }
            }
            if parser.named(key, "stacks") { return parser.members { p, _ in p.elements { $0.plainRoute() } } }
            if parser.named(key, "tabs") {
                return parser.members { p, k in
                    if p.named(k, "selected") { return p.null() || p.string() != nil }
                    return (p.named(k, "hidden") || p.named(k, "order")) && (p.null() || p.stringArray() != nil)
                }
            }
            return false
        }
    }

    /// `{}` or `{"K":V,…}` at `i`, keys ascending, each value read by `member` given its key.
    @inline(__always)
    mutating func members(_ member: (inout CanonicalLineParser, Range<Int>) -> Bool) -> Bool {
        guard i < n, base[i] == UInt8(ascii: "{") else { return false }
        i += 1
        if i < n, base[i] == UInt8(ascii: "}") {
            i += 1
            return true
        }
        var previous: Range<Int>? = nil
        while true {
            guard let key = string(), i < n, base[i] == UInt8(ascii: ":"),
                  previous.map({ ascending($0, key) }) ?? true
            else { return false }
            previous = key
            i += 1
            guard member(&self, key), i < n else { return false }
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "}") else { return false }
            i += 1
            return true
        }
    }

    /// `[]` or `[E,…]` at `i`, each element read by `element`.
    @inline(__always)
    mutating func elements(_ element: (inout CanonicalLineParser) -> Bool) -> Bool {
        guard i < n, base[i] == UInt8(ascii: "[") else { return false }
        i += 1
        if i < n, base[i] == UInt8(ascii: "]") {
            i += 1
            return true
        }
        while true {
            guard element(&self), i < n else { return false }
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "]") else { return false }
            i += 1
            return true
        }
    }

    /// `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}` at `i`.
    mutating func plainRoute() -> Bool {
        var typed = false
        let valid = members { p, k in
            if p.named(k, "type") { typed = true; return p.string() != nil }
            return p.named(k, "id") && (p.null() || p.string() != nil)
        }
        return valid && typed
    }

    /// A string at `i` that is the raw value of one of `E`'s cases.
    mutating func enumerationValue<E: CanonicalEnumeration>(_: E.Type) -> Bool {
        guard let range = string() else { return false }
        return isName(range, of: E.self)
    }

    /// Whether the bytes at `range` are the raw value of one of `E`'s cases.
    func isName<E: CanonicalEnumeration>(_ range: Range<Int>, of _: E.Type) -> Bool {
        let raw = UnsafeRawBufferPointer(rebasing: b[range])
        return E.names.contains { $0.0.count == raw.count && $0.0.elementsEqual(raw) }
    }

    /// `null` at `i`, moving past it.
    mutating func null() -> Bool {
        guard matches("null") else { return false }
        i += 4
        return true
    }

    /// Whether the bytes at `range` are `name`.
    func named(_ range: Range<Int>, _ name: StaticString) -> Bool {
        range.count == name.utf8CodeUnitCount && memcmp(base + range.lowerBound, name.utf8Start, range.count) == 0
    }
}
