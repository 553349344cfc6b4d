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
    /// The caller's storage (the parser lives for one line, on its thread).
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
    /// Whether the line is read for a ``CanonicalLineSummary``: route values
    /// are then kept as ranges (in the storage's ``LineParserStorage/routeRanges``)
    /// and `meta` is checked, not kept.
    private let summarizing: Bool
    /// The route ranges of the line so far (summarizing).
    private var routeCount = 0
    /// Whether the line has a member whose key navlog does not know (summarizing).
    private var hasUnknownMember = false

    /// The event of a canonical line, or `nil` when the line is not in the
    /// layout this path knows (the general parser then decides).
    @inline(__always)
    static func parse(_ line: UnsafeRawBufferPointer, storage: LineParserStorage) -> Event? {
        guard line.count >= 2, let start = line.baseAddress else { return nil }
        var parser = CanonicalLineParser(b: line, base: start.assumingMemoryBound(to: UInt8.self), n: line.count,
                                         storage: storage, summarizing: false)
        defer { storage.dropParsedValues() }
        guard parser.scan(), let summary = parser.summary() else { return nil }
        return parser.build(summary, storage: storage)
    }

    /// The summary of a canonical line, or `nil` when the line is not in the
    /// layout this path knows or has no `seq` (the caller then parses it to
    /// an ``Event``).
    @inline(__always)
    static func summarize(_ line: UnsafeRawBufferPointer, storage: LineParserStorage) -> CanonicalLineSummary? {
        guard line.count >= 2, let start = line.baseAddress else { return nil }
        if !storage.routeData.isEmpty { storage.routeData.removeAll(keepingCapacity: true) }
        var parser = CanonicalLineParser(b: line, base: start.assumingMemoryBound(to: UInt8.self), n: line.count,
                                         storage: storage, summarizing: true)
        guard parser.scan() else { return nil }
        return parser.summary()
    }

    private init(b: UnsafeRawBufferPointer, base: UnsafePointer<UInt8>, n: Int, storage: LineParserStorage,
                 summarizing: Bool) {
        self.b = b
        self.base = base
        self.n = n
        self.storage = storage
        self.slots = storage.slots
        self.summarizing = summarizing
    }

    @inline(__always)
    private static func bit(_ key: CanonicalKey) -> UInt32 { UInt32(1) << UInt32(key.rawValue) }

    /// Keys every kind may have.
    private static let common = bit(.cause) | bit(.meta) | bit(.scene) | bit(.seq) | bit(.session) | bit(.t) | bit(.type)

    /// How deep a `meta` object may nest here (deeper ones, up to the
    /// parser's limit, go to the general parser).
    private static let metaDepth = 8

    /// Reads the line's members, checking their layout; `false` when it is
    /// not the one this path knows.
    @inline(__always)
    private mutating func scan() -> Bool {
        guard base[0] == UInt8(ascii: "{"), base[n - 1] == UInt8(ascii: "}") else { return false }
        var last = -1
        // Where the last key's name is, once a key navlog does not know has
        // come: keys are then ordered by their bytes.
        var lastName = 0..<0
        while true {
            let nameStart = i + 1
            guard let key = matchKey() else {
                // A member navlog does not know: kept as it is by a summary
                // of a kind navlog does not know either (``summary()``).
                guard summarizing, let name = unknownMember() else { return false }
                if hasUnknownMember {
                    guard ascending(lastName, name) else { return false }
                } else if last >= 0 {
                    guard ascending(CanonicalKey(rawValue: last)!, name) else { return false }
                }
                hasUnknownMember = true
                lastName = name
                guard let more = afterMember() else { return false }
                if more { continue }
                break
            }
            // Ascending, so no key twice.
            guard key.rawValue > last else { return false }
            if hasUnknownMember {
                let name = nameStart..<(i - 2)
                guard ascending(lastName, name) else { return false }
                lastName = name
            }
            last = key.rawValue
            present |= Self.bit(key)
            switch key {
            case .seq:
                guard let v = integer(), v > 0 else { return false }
                seq = v
            case .cause:
                guard let v = integer() else { return false }
                cause = v
            case .count:
                guard let v = integer(), v > 0 else { return false }
                count = v
            case .hidden:
                if matches("true") {
                    hidden = true
                    i += 4
                } else if matches("false") {
                    i += 5
                } else {
                    return false
                }
            case .value:
                if summarizing {
                    guard routeRanges() else { return false }
                } else {
                    guard let v = routeValue() else { return false }
                    storage.keepParsed { $0.route = v }
                }
            case .path, .selection:
                if summarizing {
                    guard routeRangesArray() else { return false }
                } else {
                    guard let v = routeArray() else { return false }
                    storage.keepParsed { $0.routes = v }
                }
            case .meta:
                if summarizing {
                    guard flatMetaObject() || metaObject() != nil else { return false }
                } else {
                    guard let value = metaObject() else { return false }
                    storage.keepParsed { $0.meta = value }
                }
            case .app, .device, .state, .tabs:
                return false
            default:
                guard let range = string() else { return false }
                slots[key.rawValue] = ValueSlot(start: Int32(range.lowerBound), end: Int32(range.upperBound),
                                                isString: true, hasEscapes: false)
            }
            guard let more = afterMember() else { return false }
            if more { continue }
            break
        }
        return true
    }

    /// Past a member: `,` (another member follows: `true`) or the closing
    /// `}` that ends the line (`false`); `nil` for anything else.
    @inline(__always)
    private mutating func afterMember() -> Bool? {
        guard i < n else { return nil }
        if base[i] == UInt8(ascii: ",") {
            i += 1
            return true
        }
        guard base[i] == UInt8(ascii: "}"), i == n - 1 else { return nil }
        return false
    }

    // MARK: The event

    /// What the scanned line says, checked against its kind: the fields the
    /// kind needs are there, and no field it does not define.
    @inline(__always)
    private func summary() -> CanonicalLineSummary? {
        guard present & Self.bit(.seq) != 0, let sessionRange = range(.session), let tRange = range(.t),
              let typeRange = range(.type), tRange.count == 24,
              let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: b[tRange]))
        else { return nil }
        let tag = KindTag.match(name: UnsafeRawBufferPointer(rebasing: b[typeRange])) ?? .other
        var used: UInt32 = 0
        var name: Range<Int>? = nil
        var column: SplitColumn? = nil
        var visibility: SplitVisibility? = nil
        var style: ModalStyle? = nil
        var sizeClass: SizeClass? = nil
        switch tag {
        case .stack_push:
            used = Self.bit(.stack) | Self.bit(.value)
            guard let stack = range(.stack), present & Self.bit(.value) != 0 else { return nil }
            name = stack
        case .stack_pop:
            used = Self.bit(.stack) | Self.bit(.count)
            guard let stack = range(.stack) else { return nil }
            name = stack
        case .tab_select:
            used = Self.bit(.tab)
            guard let tab = range(.tab) else { return nil }
            name = tab
        case .mark:
            used = Self.bit(.label)
            guard let label = range(.label) else { return nil }
            name = label
        case .modal_present:
            used = Self.bit(.modal) | Self.bit(.style)
            guard let modal = range(.modal) else { return nil }
            name = modal
            if present & Self.bit(.style) != 0 {
                guard let value: ModalStyle = enumeration(.style) else { return nil }
                style = value
            }
        case .modal_dismiss:
            used = Self.bit(.modal)
            name = range(.modal)
        case .split_select:
            used = Self.bit(.split) | Self.bit(.column) | Self.bit(.selection)
            name = range(.split)
            guard let value: SplitColumn = enumeration(.column), present & Self.bit(.selection) != 0 else { return nil }
            column = value
        case .stack_popToRoot:
            used = Self.bit(.stack)
            guard let stack = range(.stack) else { return nil }
            name = stack
        case .stack_set:
            used = Self.bit(.stack) | Self.bit(.path)
            guard let stack = range(.stack), present & Self.bit(.path) != 0 else { return nil }
            name = stack
        case .url_open:
            used = Self.bit(.url)
            guard let url = range(.url) else { return nil }
            name = url
        case .session_start, .session_end, .scene_open, .scene_close:
            break
        case .tab_visibility:
            used = Self.bit(.tab) | Self.bit(.hidden)
            guard let tab = range(.tab), present & Self.bit(.hidden) != 0 else { return nil }
            name = tab
        case .split_visibility:
            used = Self.bit(.split) | Self.bit(.visibility)
            guard let split = range(.split), let value: SplitVisibility = enumeration(.visibility) else { return nil }
            name = split
            visibility = value
        case .layout_change:
            used = Self.bit(.sizeClass)
            guard let value: SizeClass = enumeration(.sizeClass) else { return nil }
            sizeClass = value
        case .other:
            name = typeRange
        case .tabs_define, .state_restore:
            return nil
        }
        // A field the kind does not define would be an extra field; one
        // whose key navlog does not know is kept, as it is, by a kind navlog
        // does not know either (its event keeps it in `extra`, and nothing
        // of it reaches the state).
        guard present & ~(used | Self.common) == 0, !hasUnknownMember || tag == .other else { return nil }
        return CanonicalLineSummary(
            tag: tag, seq: seq, t: t, session: sessionRange, scene: range(.scene), name: name,
            column: column, visibility: visibility, style: style, sizeClass: sizeClass,
            count: present & Self.bit(.count) != 0 ? count : nil, hidden: hidden, routes: 0..<routeCount)
    }

    /// The event of a scanned line whose summary is `s` (`storage` is the parser's).
    @inline(__always)
    private func build(_ s: CanonicalLineSummary, storage: LineParserStorage) -> Event {
        var parsed = storage.takeParsedValues()
        @inline(__always) func string(_ range: Range<Int>) -> String {
            storage.names.string(UnsafeRawBufferPointer(rebasing: b[range]))
        }
        let kind: EventKind
        switch s.tag {
        case .stack_push: kind = .stackPush(stack: string(s.name!), value: parsed.route.take()!)
        case .stack_pop: kind = .stackPop(stack: string(s.name!), count: s.count)
        case .tab_select: kind = .tabSelect(tab: string(s.name!))
        case .mark: kind = .mark(label: string(s.name!))
        case .modal_present: kind = .modalPresent(modal: string(s.name!), style: s.style)
        case .modal_dismiss: kind = .modalDismiss(modal: s.name.map { string($0) })
        case .split_select: kind = .splitSelect(split: s.name.map { string($0) }, column: s.column!, selection: parsed.takeRoutes())
        case .stack_popToRoot: kind = .stackPopToRoot(stack: string(s.name!))
        case .stack_set: kind = .stackSet(stack: string(s.name!), path: parsed.takeRoutes())
        case .url_open: kind = .urlOpen(url: string(s.name!))
        case .session_start: kind = .sessionStart(app: nil, device: nil)
        case .session_end: kind = .sessionEnd
        case .scene_open: kind = .sceneOpen
        case .scene_close: kind = .sceneClose
        case .tab_visibility: kind = .tabVisibility(tab: string(s.name!), hidden: s.hidden)
        case .split_visibility: kind = .splitVisibility(split: string(s.name!), visibility: s.visibility!)
        case .layout_change: kind = .layoutChange(sizeClass: s.sizeClass!)
        case .other: kind = .other(type: String(decoding: UnsafeRawBufferPointer(rebasing: b[s.name!]), as: UTF8.self))
        case .tabs_define, .state_restore: preconditionFailure("no summary is made of this kind")
        }
        // Short ids come from the name cache (interleaved sessions miss the
        // parser's one-entry memory of the last session).
        let sessionBytes = UnsafeRawBufferPointer(rebasing: b[s.session])
        let session = sessionBytes.count <= StringInterner.maxBytes
            ? storage.names.string(sessionBytes) : storage.session(sessionBytes)
        return Event(kind: kind, session: session, seq: s.seq, t: s.t, scene: s.scene.map { string($0) },
                     cause: present & Self.bit(.cause) != 0 ? cause : nil, meta: parsed.meta.take(), extra: [:])
    }

    /// The string at `range` of the line, through the name cache.
    @inline(__always)
    private func string(_ range: Range<Int>) -> String {
        storage.names.string(UnsafeRawBufferPointer(rebasing: b[range]))
    }

    /// Where a string field's characters are, when the line has it.
    @inline(__always)
    private func range(_ key: CanonicalKey) -> Range<Int>? {
        guard present & Self.bit(key) != 0 else { return nil }
        let slot = slots[key.rawValue]
        return Int(slot.start)..<Int(slot.end)
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
    private mutating func routeRanges() -> Bool {
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
    private mutating func routeIdentity() -> (id: Range<Int>?, type: Range<Int>)? {
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

    /// A route's `data` at `i`, when it is exactly what the canonical writer
    /// writes for it (the general parser's check: written again, compared).
    /// `null` is left to the general parser, which reads it as no data.
    private mutating func dataValue() -> JSONValue? {
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

    /// A flat `meta` object at `i` (summarizing): plain keys in ascending
    /// order, each with a plain string, a number, `true`, `false` or `null`
    /// — exactly what the canonical writer writes for it, checked as it is
    /// read. `false`, with `i` where it was, for any other object, which
    /// ``metaObject()`` then checks by writing it again.
    private mutating func flatMetaObject() -> Bool {
        let start = i
        guard i < n, base[i] == UInt8(ascii: "{") else { return false }
        i += 1
        if i < n, base[i] == UInt8(ascii: "}") {
            i += 1
            return true
        }
        var previous: Range<Int>? = nil
        while true {
            guard let key = string(), i + 1 < n, base[i] == UInt8(ascii: ":"),
                  previous.map({ ascending($0, key) }) ?? true
            else { break }
            previous = key
            i += 1
            guard plainScalar() else { break }
            guard i < n else { break }
            if base[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard base[i] == UInt8(ascii: "}") else { break }
            i += 1
            return true
        }
        i = start
        return false
    }

    /// The value of the object at `range`, which ``flatMetaObject()`` has
    /// read: plain keys, each with a plain string or a scalar.
    private func flatObjectValue(_ range: Range<Int>) -> JSONValue {
        var members: [String: JSONValue] = [:]
        var k = range.lowerBound + 1
        let end = range.upperBound - 1
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
    private mutating func unknownMember() -> Range<Int>? {
        guard let name = string(), i + 1 < n, base[i] == UInt8(ascii: ":"),
              base[i + 1] != UInt8(ascii: "n") else { return nil }
        i += 1
        return plainScalar() ? name : nil
    }

    /// A plain string, a number, `true`, `false` or `null` at `i`: a value
    /// the canonical writer writes exactly as it is read. Moves past it;
    /// `false` (with `i` somewhere in it) for anything else.
    @inline(__always)
    private mutating func plainScalar() -> Bool {
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
    private func ascending(_ a: CanonicalKey, _ b: Range<Int>) -> Bool {
        let name = UnsafeRawBufferPointer(rebasing: self.b[b])
        return a.name.utf8.lexicographicallyPrecedes(name)
    }

    /// Whether the bytes at `b` sort strictly after those at `a` (the
    /// canonical writer's key order: by UTF-8 bytes).
    @inline(__always)
    private func ascending(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let common = min(a.count, b.count)
        let order = memcmp(base + a.lowerBound, base + b.lowerBound, common)
        return order < 0 || (order == 0 && a.count < b.count)
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`.
    private mutating func routeArray() -> [RouteValue]? {
        var out: [RouteValue] = []
        let read = routeList { parser in
            guard let value = parser.routeValue() else { return false }
            out.append(value)
            return true
        }
        return read ? out : nil
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`, kept as ranges (summarizing).
    private mutating func routeRangesArray() -> Bool {
        routeList { parser in parser.routeRanges() }
    }

    /// `[]` or `[ROUTE,ROUTE,…]` at `i`, each route read by `element`.
    @inline(__always)
    private mutating func routeList(_ element: (inout CanonicalLineParser) -> Bool) -> Bool {
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
