#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The fast path of ``EventLineParser``: a line written exactly as
/// ``CanonicalWriter`` writes it, read in one pass without the general
/// scanner's bookkeeping.
///
/// It knows one layout: an object whose known keys come in canonical
/// (ascending) order with no space, strings of printable ASCII without
/// escapes, integers in their shortest digits, `t` in its 24-byte form, and
/// route values as `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}` (with
/// a leading `"data":…` written canonically, if any), and a
/// `meta` object of little depth exactly as the writer writes it. Every
/// event kind is covered but `tabs.define`, `state.restore` and
/// `session.start` with `app` or `device`; route `data` deeper than a few
/// levels or not written canonically, fields a kind does not define, and
/// anything else outside that layout are left to the general parser (``parse(_:storage:)`` returns `nil`), as is every
/// line the general parser would refuse. So a line it reads is one the
/// general parser reads to the same event and finds canonical — which the
/// tests check line by line against it.
struct CanonicalLineParser {
    private let b: UnsafeRawBufferPointer
    private let base: UnsafePointer<UInt8>
    private let n: Int
    private var i = 1
    private let storage: LineParserStorage
    /// Which keys the line has, by ``CanonicalKey`` raw value.
    private var present: UInt32 = 0
    /// Where each string field's characters are (between its quotes), by
    /// ``CanonicalKey`` raw value: the storage's slots, valid for the keys
    /// in ``present`` that hold strings.
    private let slots: UnsafeMutablePointer<ValueSlot>
    private var seq = 0
    private var cause = 0
    private var count = 0
    private var hidden = false
    private var route: RouteValue? = nil
    private var routes: [RouteValue] = []
    private var meta: [String: JSONValue]? = nil

    /// The event of a canonical line, or `nil` when the line is not in the
    /// layout this path knows (the general parser then decides).
    @inline(__always)
    static func parse(_ line: UnsafeRawBufferPointer, storage: LineParserStorage) -> Event? {
        guard line.count >= 2, let start = line.baseAddress else { return nil }
        var parser = CanonicalLineParser(b: line, base: start.assumingMemoryBound(to: UInt8.self), n: line.count,
                                         storage: storage)
        return parser.parse()
    }

    private init(b: UnsafeRawBufferPointer, base: UnsafePointer<UInt8>, n: Int, storage: LineParserStorage) {
        self.b = b
        self.base = base
        self.n = n
        self.storage = storage
        self.slots = storage.slots
    }

    @inline(__always)
    private static func bit(_ key: CanonicalKey) -> UInt32 { UInt32(1) << UInt32(key.rawValue) }

    /// Keys every kind may have.
    private static let common = bit(.cause) | bit(.meta) | bit(.scene) | bit(.seq) | bit(.session) | bit(.t) | bit(.type)

    /// How deep a `meta` object may nest here (deeper ones, up to the
    /// parser's limit, go to the general parser).
    private static let metaDepth = 8

    private mutating func parse() -> Event? {
        guard base[0] == UInt8(ascii: "{"), base[n - 1] == UInt8(ascii: "}") else { return nil }
        var last = -1
        while true {
            guard let key = matchKey() else { return nil }
            // Ascending, so no key twice.
            guard key.rawValue > last else { return nil }
            last = key.rawValue
            present |= Self.bit(key)
            switch key {
            case .seq:
                guard let v = integer(), v > 0 else { return nil }
                seq = v
            case .cause:
                guard let v = integer() else { return nil }
                cause = v
            case .count:
                guard let v = integer(), v > 0 else { return nil }
                count = v
            case .hidden:
                if matches("true") {
                    hidden = true
                    i += 4
                } else if matches("false") {
                    i += 5
                } else {
                    return nil
                }
            case .value:
                guard let v = routeValue() else { return nil }
                route = v
            case .path, .selection:
                guard let v = routeArray() else { return nil }
                routes = v
            case .meta:
                guard let value = metaObject() else { return nil }
                meta = value
            case .app, .device, .state, .tabs:
                return nil
            default:
                guard let range = string() else { return nil }
                slots[key.rawValue] = ValueSlot(start: Int32(range.lowerBound), end: Int32(range.upperBound),
                                                isString: true, hasEscapes: false)
            }
            guard i < n else { return nil }
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "}"), i == n - 1 else { return nil }
            break
        }
        return build()
    }

    // MARK: The event

    @inline(__always)
    private mutating func build() -> Event? {
        guard present & Self.bit(.seq) != 0, let sessionRange = range(.session), let tRange = range(.t),
              let typeRange = range(.type), tRange.count == 24,
              let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: b[tRange]))
        else { return nil }
        let token = JSONReader.StringToken(start: typeRange.lowerBound, end: typeRange.upperBound, hasEscapes: false)
        let tag = KindTag.match(token, in: JSONReader(b)) ?? .other
        var used: UInt32 = 0
        let kind: EventKind
        switch tag {
        case .stack_push:
            used = Self.bit(.stack) | Self.bit(.value)
            guard let stack = name(.stack), let route else { return nil }
            kind = .stackPush(stack: stack, value: route)
        case .stack_pop:
            used = Self.bit(.stack) | Self.bit(.count)
            guard let stack = name(.stack) else { return nil }
            kind = .stackPop(stack: stack, count: present & Self.bit(.count) != 0 ? count : nil)
        case .tab_select:
            used = Self.bit(.tab)
            guard let tab = name(.tab) else { return nil }
            kind = .tabSelect(tab: tab)
        case .mark:
            used = Self.bit(.label)
            guard let label = name(.label) else { return nil }
            kind = .mark(label: label)
        case .modal_present:
            used = Self.bit(.modal) | Self.bit(.style)
            guard let modal = name(.modal) else { return nil }
            var style: ModalStyle? = nil
            if present & Self.bit(.style) != 0 {
                guard let value: ModalStyle = enumeration(.style) else { return nil }
                style = value
            }
            kind = .modalPresent(modal: modal, style: style)
        case .modal_dismiss:
            used = Self.bit(.modal)
            var modal: String? = nil
            if present & Self.bit(.modal) != 0 {
                guard let value = name(.modal) else { return nil }
                modal = value
            }
            kind = .modalDismiss(modal: modal)
        case .split_select:
            used = Self.bit(.split) | Self.bit(.column) | Self.bit(.selection)
            var split: String? = nil
            if present & Self.bit(.split) != 0 {
                guard let value = name(.split) else { return nil }
                split = value
            }
            guard let column: SplitColumn = enumeration(.column), present & Self.bit(.selection) != 0 else { return nil }
            kind = .splitSelect(split: split, column: column, selection: routes)
        case .stack_popToRoot:
            used = Self.bit(.stack)
            guard let stack = name(.stack) else { return nil }
            kind = .stackPopToRoot(stack: stack)
        case .stack_set:
            used = Self.bit(.stack) | Self.bit(.path)
            guard let stack = name(.stack), present & Self.bit(.path) != 0 else { return nil }
            kind = .stackSet(stack: stack, path: routes)
        case .url_open:
            used = Self.bit(.url)
            guard let url = name(.url) else { return nil }
            kind = .urlOpen(url: url)
        case .session_start:
            kind = .sessionStart(app: nil, device: nil)
        case .session_end:
            kind = .sessionEnd
        case .scene_open:
            kind = .sceneOpen
        case .scene_close:
            kind = .sceneClose
        case .tab_visibility:
            used = Self.bit(.tab) | Self.bit(.hidden)
            guard let tab = name(.tab), present & Self.bit(.hidden) != 0 else { return nil }
            kind = .tabVisibility(tab: tab, hidden: hidden)
        case .split_visibility:
            used = Self.bit(.split) | Self.bit(.visibility)
            guard let split = name(.split), let visibility: SplitVisibility = enumeration(.visibility) else { return nil }
            kind = .splitVisibility(split: split, visibility: visibility)
        case .layout_change:
            used = Self.bit(.sizeClass)
            guard let sizeClass: SizeClass = enumeration(.sizeClass) else { return nil }
            kind = .layoutChange(sizeClass: sizeClass)
        case .other:
            kind = .other(type: String(decoding: UnsafeRawBufferPointer(rebasing: b[typeRange]), as: UTF8.self))
        case .tabs_define, .state_restore:
            return nil
        }
        // A field the kind does not define would be an extra field.
        guard present & ~(used | Self.common) == 0 else { return nil }
        var scene: String? = nil
        if present & Self.bit(.scene) != 0 {
            guard let value = name(.scene) else { return nil }
            scene = value
        }
        // Short ids come from the name cache (interleaved sessions miss the
        // parser's one-entry memory of the last session).
        let sessionBytes = UnsafeRawBufferPointer(rebasing: b[sessionRange])
        let session = sessionBytes.count <= StringInterner.maxBytes
            ? storage.names.string(sessionBytes) : storage.session(sessionBytes)
        return Event(kind: kind, session: session, seq: seq, t: t, scene: scene,
                     cause: present & Self.bit(.cause) != 0 ? cause : nil, meta: meta, extra: [:])
    }

    /// Where a string field's characters are, when the line has it.
    @inline(__always)
    private func range(_ key: CanonicalKey) -> Range<Int>? {
        guard present & Self.bit(key) != 0 else { return nil }
        let slot = slots[key.rawValue]
        return Int(slot.start)..<Int(slot.end)
    }

    /// A string field's value, when the line has it.
    @inline(__always)
    private func name(_ key: CanonicalKey) -> String? {
        guard let range = range(key) else { return nil }
        return storage.names.string(UnsafeRawBufferPointer(rebasing: b[range]))
    }

    /// An enumeration field's value, when the line has it and it is one.
    @inline(__always)
    private func enumeration<E: CanonicalEnumeration>(_ key: CanonicalKey) -> E? {
        guard let range = range(key) else { return nil }
        let raw = UnsafeRawBufferPointer(rebasing: b[range])
        for (name, value) in E.names where name.count == raw.count && name.elementsEqual(raw) { return value }
        return nil
    }

    // MARK: Scanning

    /// The known key at `i` (its quotes and colon), moving past it.
    @inline(__always)
    private mutating func matchKey() -> CanonicalKey? {
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
    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= n else { return false }
        let p = literal.utf8Start
        for k in 0..<count where base[i + k] != p[k] { return false }
        return true
    }

    /// A non-negative integer in its shortest digits (1 to 18 of them).
    @inline(__always)
    private mutating func integer() -> Int? {
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

    /// A non-empty string of printable ASCII without escapes at `i`: the
    /// range of its characters, with `i` moved past its closing quote.
    @inline(__always)
    private mutating func string() -> Range<Int>? {
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
    private mutating func routeValue() -> RouteValue? {
        var id: Range<Int>? = nil
        var data: JSONValue? = nil
        if matches(#"{"data":"#) {
            i += 8
            guard let value = dataValue(), i < n, base[i] == UInt8(ascii: ",") else { return nil }
            data = value
        } else {
            guard i < n, base[i] == UInt8(ascii: "{") else { return nil }
        }
        // Past the `{`, or the `,` after the data: `"id":` or `"type":`.
        i += 1
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
        let names = storage.names
        return RouteValue(type: names.string(UnsafeRawBufferPointer(rebasing: b[type])),
                          id: id.map { names.string(UnsafeRawBufferPointer(rebasing: b[$0])) }, data: data)
    }

    /// A route's `data` at `i`, when it is exactly what the canonical writer
    /// writes for it (the general parser's check: written again, compared).
    /// `null` is left to the general parser, which reads it as no data.
    private mutating func dataValue() -> JSONValue? {
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
    private func writtenAgain(_ length: Int) -> Bool {
        storage.scratch.bytes.count == length && storage.scratch.bytes.withUnsafeBytes { written in
            memcmp(written.baseAddress!, base + i, length) == 0
        }
    }

    /// A `meta` object at `i`, when it is exactly what the canonical writer
    /// writes for it (the general parser's check: written again, compared).
    private mutating func metaObject() -> [String: JSONValue]? {
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

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`.
    private mutating func routeArray() -> [RouteValue]? {
        guard i < n, base[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        var out: [RouteValue] = []
        if i < n, base[i] == UInt8(ascii: "]") {
            i += 1
            return out
        }
        while true {
            guard let value = routeValue(), i < n else { return nil }
            out.append(value)
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "]") else { return nil }
            i += 1
            return out
        }
    }
}

/// An enumeration written as one of its raw values, with their bytes at hand.
protocol CanonicalEnumeration: RawRepresentable, CaseIterable where RawValue == String {
    /// Each case with its raw value's UTF-8 bytes.
    static var names: [([UInt8], Self)] { get }
}

extension CanonicalEnumeration {
    /// Each case with its raw value's UTF-8 bytes.
    static func namesOfAllCases() -> [([UInt8], Self)] { allCases.map { (Array($0.rawValue.utf8), $0) } }
}

extension SplitColumn: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension SplitVisibility: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension ModalStyle: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension SizeClass: CanonicalEnumeration {
    static let names = namesOfAllCases()
}
