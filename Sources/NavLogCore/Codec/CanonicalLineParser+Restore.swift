#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A `state.restore` scene as ``CanonicalLineParser/restoredState(_:)``
/// reads it: what it builds directly, and the members of `tabs` that
/// ``TabState/restore(order:hidden:selected:)`` puts together.
struct RestoredScene {
    var partial = SceneState()
    var order: [String]?
    var hidden: [String]?
    var selected: String?

    /// The scene, as ``SceneState/decodeRestore(_:)`` gives it.
    var scene: SceneState {
        var scene = partial
        scene.tabs.restore(order: order, hidden: hidden, selected: selected)
        return scene
    }
}

extension CanonicalLineParser {
    // MARK: `state.restore`'s state

    /// ``restoredState(_:)``, checked without being built.
    mutating func restoredState() -> Bool {
        var none: RestoredScene? = nil
        return restoredState(&none)
    }

    /// Whether the `state` object at `i` is one ``SceneState/decodeRestore(_:)``
    /// accepts, checked in one layout (moving `i` past it), and built into
    /// `built` unless it is `nil` (the same scene `decodeRestore` gives):
    /// keys in ascending byte order (so none twice) among `modals`,
    /// `screen`, `sizeClass`, `splits`, `stacks`, `tabs`; `null` only where
    /// `decodeRestore` reads it as absent (an optional member); strings
    /// of printable ASCII without escapes, not empty; route values as
    /// `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}`; in a modal only
    /// `modal` and `style`, in a split only its columns and `visibility`, in
    /// `tabs` only `hidden`, `order` and `selected`. Anything else (which
    /// `decodeRestore` may well accept) is `false`: the general parser decides.
    mutating func restoredState(_ built: inout RestoredScene?) -> Bool {
        members { parser, key in
            let known = ["modals", "screen", "sizeClass", "splits", "stacks", "tabs"] as [StaticString]
            if parser.null() { return known.contains { parser.named(key, $0) } }
            if parser.named(key, "modals") {
                return parser.elements { modal in
                    var name: Range<Int>? = nil
                    var style = ModalStyle.sheet
                    let valid = modal.members { p, k in
                        if p.named(k, "modal") { name = p.string(); return name != nil }
                        guard p.named(k, "style") else { return false }
                        if p.null() { return true }
                        guard let value: ModalStyle = p.enumerationCase() else { return false }
                        style = value
                        return true
                    }
                    guard valid, let name else { return false }
                    built?.partial.modals.append(ModalPresentation(modal: modal.string(name), style: style))
                    return true
                }
            }
            if parser.named(key, "screen") { return parser.string() != nil }
            if parser.named(key, "sizeClass") {
                guard let value: SizeClass = parser.enumerationCase() else { return false }
                built?.partial.sizeClass = value
                return true
            }
            let building = built != nil
            if parser.named(key, "splits") {
                return parser.members { p, id in
                    var split = SplitState()
                    let valid = p.members { q, k in
                        if q.named(k, "visibility") {
                            if q.null() { return true }
                            guard let value: SplitVisibility = q.enumerationCase() else { return false }
                            split.visibility = value
                            return true
                        }
                        guard let column: SplitColumn = q.enumerationCase(at: k) else { return false }
                        return q.null() || q.plainRoutes(into: &split[column], building: building)
                    }
                    guard valid else { return false }
                    built?.partial.splits[p.string(id)] = split
                    return true
                }
            }
            if parser.named(key, "stacks") {
                return parser.members { p, id in
                    var routes: [RouteValue] = []
                    guard p.plainRoutes(into: &routes, building: building) else { return false }
                    built?.partial.stacks[p.string(id)] = routes
                    return true
                }
            }
            if parser.named(key, "tabs") {
                return parser.members { p, k in
                    if p.named(k, "selected") {
                        if p.null() { return true }
                        guard let range = p.string() else { return false }
                        built?.selected = p.string(range)
                        return true
                    }
                    let hidden = p.named(k, "hidden")
                    guard hidden || p.named(k, "order") else { return false }
                    if p.null() { return true }
                    guard let range = p.stringArray() else { return false }
                    if building {
                        let names = Self.strings(ofArray: range, in: p.b, names: p.storage.names)
                        if hidden { built?.hidden = names } else { built?.order = names }
                    }
                    return true
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

    /// `[]` or `[ROUTE,…]` at `i`, each `{"id":"ID","type":"TYPE"}` or
    /// `{"type":"TYPE"}` (`"id":null` as no id); appended to `routes` when `building`.
    mutating func plainRoutes(into routes: inout [RouteValue], building: Bool) -> Bool {
        elements { p in
            var type: Range<Int>? = nil
            var id: Range<Int>? = nil
            let valid = p.members { q, k in
                if q.named(k, "type") { type = q.string(); return type != nil }
                guard q.named(k, "id") else { return false }
                if q.null() { return true }
                id = q.string()
                return id != nil
            }
            guard valid, let type else { return false }
            if building { routes.append(RouteValue(type: p.string(type), id: id.map { p.string($0) })) }
            return true
        }
    }

    /// The case of `E` whose raw value is the string at `i`, moving past it.
    mutating func enumerationCase<E: CanonicalEnumeration>() -> E? {
        guard let range = string() else { return nil }
        return enumerationCase(at: range)
    }

    /// The case of `E` whose raw value is the bytes at `range`.
    func enumerationCase<E: CanonicalEnumeration>(at range: Range<Int>) -> E? {
        let raw = UnsafeRawBufferPointer(rebasing: b[range])
        for (name, value) in E.names where name.count == raw.count && name.elementsEqual(raw) { return value }
        return nil
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
