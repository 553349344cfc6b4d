#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Parses one NDJSON line into an ``Event`` with full validation (contract §1, §5).
///
/// ```swift
/// let event = try EventParser.parse(#"{"session":"s-1","t":"2026-11-20T10:00:00Z","type":"mark","label":"purchase"}"#)
/// ```
///
/// The line is scanned once: fields the contract defines are located, then
/// decoded from their bytes once the event's `type` is known; other fields
/// are kept in ``Event/extra``. A line is either accepted whole or rejected
/// with an ``EventParseError`` that says which field and what was wrong.
/// `seq` is `0` when the line has none (a ``Sequencer`` assigns it).
///
/// - Complexity: O(n) in the line's length.
public enum EventParser {
    /// The longest line accepted, in bytes (1 MiB).
    public static let maxLineBytes = 1 << 20
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64

    /// Parses one line given as bytes (without its newline).
    public static func parse(_ line: [UInt8]) throws(EventParseError) -> Event {
        try line.withUnsafeBytes { buf in Result { () throws(EventParseError) in try parse(buf) } }.get()
    }

    /// Parses one line given as a string (without its newline).
    public static func parse(_ line: String) throws(EventParseError) -> Event {
        var line = line
        return try line.withUTF8 { buf in
            Result { () throws(EventParseError) in try parse(UnsafeRawBufferPointer(buf)) }
        }.get()
    }

    /// Parses one line (without its newline). For many lines, reuse an
    /// ``EventLineParser``, which is faster.
    public static func parse(_ line: UnsafeRawBufferPointer) throws(EventParseError) -> Event {
        var parser = EventLineParser()
        return try parser.parse(line)
    }
}

/// A reusable line parser: the same checks as ``EventParser``, with its
/// scratch space and the last session id kept between lines (a log's lines
/// all name the same session).
public struct EventLineParser {
    let storage: LineParserStorage

    /// A parser; with `checkingCanonicalForm`, it also tells after each line
    /// whether the line was already canonical (``lastLineIsCanonical``),
    /// which costs a little more per line.
    public init(checkingCanonicalForm: Bool = false) {
        storage = LineParserStorage(checkingCanonicalForm: checkingCanonicalForm)
    }

    /// A parser that reads canonical lines through ``CanonicalLineParser``
    /// first (the default), or only ever through the general one (tests
    /// compare the two).
    package init(checkingCanonicalForm: Bool, usingFastPath: Bool) {
        storage = LineParserStorage(checkingCanonicalForm: checkingCanonicalForm)
        storage.usesFastPath = usingFastPath
    }

    /// Parses one line (without its newline).
    public mutating func parse(_ line: UnsafeRawBufferPointer) throws(EventParseError) -> Event {
        try parse(line, tryingFastPath: true)
    }

    /// ``parse(_:)``, without trying the fast path first when the caller
    /// knows it would not read the line (``summarize(_:)`` made no summary
    /// of it): the answer is the same, one scan fewer.
    package mutating func parse(_ line: UnsafeRawBufferPointer, tryingFastPath: Bool) throws(EventParseError) -> Event {
        guard line.count <= EventParser.maxLineBytes else {
            throw .lineTooLong(bytes: line.count, limit: EventParser.maxLineBytes)
        }
        if tryingFastPath, storage.usesFastPath, let event = CanonicalLineParser.parse(line, storage: storage) {
            storage.lastLineIsCanonical = storage.checksCanonicalForm
            return event
        }
        var parser = LineParser(reader: JSONReader(line), storage: storage)
        storage.lastLineIsCanonical = false
        return try parser.parse()
    }

    /// Whether the line last parsed is exactly the canonical form of its event
    /// (the bytes ``CanonicalWriter`` writes for it), so a writer can keep the
    /// line instead of encoding the event again. `false` means "not known to
    /// be": the check is cheap and conservative (it gives up on escapes, `meta`,
    /// objects and route arrays, for example). Always `false` after a line
    /// that was rejected, and from a parser made without `checkingCanonicalForm`.
    public var lastLineIsCanonical: Bool { storage.lastLineIsCanonical }

    /// Parses one line given as bytes.
    public mutating func parse(_ line: [UInt8]) throws(EventParseError) -> Event {
        try line.withUnsafeBytes { buf in Result { () throws(EventParseError) in try parse(buf) } }.get()
    }
}

/// Scratch space of an ``EventLineParser``.
final class LineParserStorage {
    /// Where each known field's value is, by ``CanonicalKey`` raw value.
    let slots = UnsafeMutablePointer<ValueSlot>.allocate(capacity: CanonicalKey.allCases.count)
    /// The last session id's bytes (in a buffer of `sessionCapacity`) and string.
    @exclusivity(unchecked) private var sessionBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    @exclusivity(unchecked) private var sessionCapacity = 64
    @exclusivity(unchecked) private var sessionCount = 0
    @exclusivity(unchecked) var session: String = ""
    /// The last session id's bytes.
    var sessionBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: sessionBuffer, count: sessionCount) }
    /// Where values are written again to compare them with the line's.
    @exclusivity(unchecked) var scratch = CanonicalWriter(capacity: 1024)
    /// The date of the last canonical `t`.
    @exclusivity(unchecked) var timestamps = CanonicalTimestampCache()
    /// Whether lines are checked for being canonical.
    let checksCanonicalForm: Bool
    /// The check's answer for the last line (set once the line is accepted).
    @exclusivity(unchecked) var lastLineIsCanonical = false
    /// Whether lines are tried with ``CanonicalLineParser`` first.
    @exclusivity(unchecked) var usesFastPath = true

    init(checkingCanonicalForm: Bool) {
        checksCanonicalForm = checkingCanonicalForm
    }

    /// Short names seen before (stack ids, tabs, route types and ids).
    let names = StringInterner()
    /// The route values of the last line summarized (``CanonicalLineSummary/routes``).
    @exclusivity(unchecked) private(set) var routeRanges = UnsafeMutablePointer<RouteRanges>.allocate(capacity: 16)
    @exclusivity(unchecked) private var routeCapacity = 16

    /// The `data` of the route values of the last line summarized.
    @exclusivity(unchecked) var routeData: [JSONValue] = []

    /// The values ``CanonicalLineParser`` reads from a line it parses to an
    /// event, until the event takes them (``takeParsedValues()``), and
    /// whether it holds any.
    @exclusivity(unchecked) private var parsedValues = ParsedValues()
    @exclusivity(unchecked) private var holdsParsedValues = false

    /// The route value of `value`, those of `path` or `selection`, and `meta`.
    struct ParsedValues {
        var route: RouteValue?
        var routes: [RouteValue] = []
        var meta: [String: JSONValue]?

        /// `routes`, moved out.
        @inline(__always)
        mutating func takeRoutes() -> [RouteValue] {
            var taken: [RouteValue] = []
            swap(&taken, &routes)
            return taken
        }
    }

    /// Keeps a value read for the event of the line being parsed.
    @inline(__always)
    func keepParsed(_ keep: (inout ParsedValues) -> Void) {
        keep(&parsedValues)
        holdsParsedValues = true
    }

    /// The values kept for the event, moved out (none are left).
    @inline(__always)
    func takeParsedValues() -> ParsedValues {
        var taken = ParsedValues()
        if holdsParsedValues {
            swap(&taken, &parsedValues)
            holdsParsedValues = false
        }
        return taken
    }

    /// Drops the values kept for a line the fast path did not read after all.
    @inline(__always)
    func dropParsedValues() {
        if holdsParsedValues {
            parsedValues = ParsedValues()
            holdsParsedValues = false
        }
    }

    /// Keeps route value `index` of the line being summarized.
    @inline(__always)
    func setRouteRanges(_ ranges: RouteRanges, at index: Int) {
        if index == routeCapacity { growRouteRanges() }
        routeRanges[index] = ranges
    }

    @inline(never)
    private func growRouteRanges() {
        let grown = UnsafeMutablePointer<RouteRanges>.allocate(capacity: 2 * routeCapacity)
        grown.moveInitialize(from: routeRanges, count: routeCapacity)
        routeRanges.deallocate()
        routeRanges = grown
        routeCapacity *= 2
    }

    /// Known keys written plainly.
    let keys = CanonicalKeyMatcher.shared

    deinit {
        slots.deallocate()
        sessionBuffer.deallocate()
        routeRanges.deallocate()
    }

    /// The session id for these bytes, reusing the last one when equal (and
    /// a short one seen before: interleaved sessions alternate).
    func session(_ raw: UnsafeRawBufferPointer) -> String {
        let n = raw.count
        if n == sessionCount, n == 0 || memcmp(sessionBuffer, raw.baseAddress!, n) == 0 { return session }
        if n > sessionCapacity {
            sessionBuffer.deallocate()
            sessionCapacity = max(n, 2 * sessionCapacity)
            sessionBuffer = .allocate(byteCount: sessionCapacity, alignment: 8)
        }
        if n > 0 { sessionBuffer.copyMemory(from: raw.baseAddress!, byteCount: n) }
        sessionCount = n
        session = n <= StringInterner.maxBytes ? names.string(raw) : String(decoding: raw, as: UTF8.self)
        return session
    }
}

extension JSONValue {
    /// Parses any JSON text (the same limits and strictness as event lines).
    public static func parse(_ text: String) throws(EventParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buf in
            Result { () throws(EventParseError) -> JSONValue in
                let raw = UnsafeRawBufferPointer(buf)
                guard raw.count <= EventParser.maxLineBytes else {
                    throw .lineTooLong(bytes: raw.count, limit: EventParser.maxLineBytes)
                }
                var reader = JSONReader(raw)
                let value = try reader.parseValue()
                reader.skipWhitespace()
                guard reader.atEnd else { throw reader.unexpected("end of input") }
                return value
            }
        }.get()
    }
}

/// The single-line parser behind ``EventParser``.
private struct LineParser {
    var r: JSONReader
    let storage: LineParserStorage
    /// Where each known field's value is, by ``CanonicalKey`` raw value.
    let slots: UnsafeMutablePointer<ValueSlot>
    /// Which known fields are present (non-null).
    var present: UInt32 = 0
    /// Which known fields appeared at all (to catch duplicates).
    var seen: UInt32 = 0
    var extra: [String: JSONValue] = [:]
    /// Values decoded during the scan (see ``decodeEarly(_:)``).
    var early = EarlyValues()
    /// Which known fields hold a string with escapes.
    var escaped: UInt32 = 0
    /// Whether the line is, so far as seen, exactly the canonical form of its
    /// event (see ``EventLineParser/lastLineIsCanonical``); `false` from the
    /// start when the parser does not check.
    var canonical: Bool

    init(reader: JSONReader, storage: LineParserStorage) {
        self.r = reader
        self.storage = storage
        self.slots = storage.slots
        self.canonical = storage.checksCanonicalForm
    }

    @inline(__always)
    mutating func parse() throws(EventParseError) -> Event {
        r.skipWhitespace()
        guard r.peek() == UInt8(ascii: "{") else {
            if r.atEnd { throw .notAnObject(found: "an empty line") }
            var probe = r
            if let v = try? probe.parseValue() { throw .notAnObject(found: v.typeName) }
            throw r.unexpected("'{'")
        }
        if r.i != 0 { canonical = false }
        r.depth = 1
        r.i += 1
        if r.peek() != UInt8(ascii: "\"") { canonical = false }
        r.skipWhitespace()
        // Where the previous key's bytes lie, to see that keys come sorted.
        var previousKey = 0..<0
        if r.peek() == UInt8(ascii: "}") {
            r.i += 1
        } else {
            while true {
                if r.peek() != UInt8(ascii: "\"") { canonical = false }
                r.skipWhitespace()
                var key: CanonicalKey? = nil
                var name: String? = nil
                let keyBytes: Range<Int>
                if let plain = storage.keys.match(r.bytes, at: r.i) {
                    key = plain.key
                    keyBytes = (r.i + 1)..<(r.i + plain.length - 2)
                    r.i += plain.length
                } else {
                    let keyToken = try r.scanString()
                    keyBytes = keyToken.start..<keyToken.end
                    if keyToken.hasEscapes || r.peek() != UInt8(ascii: ":") { canonical = false }
                    try r.expect(UInt8(ascii: ":"), "':'")
                    key = match(keyToken)
                    if key == nil {
                        let decoded = r.string(keyToken)
                        name = decoded
                        if keyToken.hasEscapes { key = CanonicalKey.named(decoded) }
                    }
                }
                if canonical {
                    if !previousKey.isEmpty, !Self.ascending(previousKey, keyBytes, in: r.bytes) { canonical = false }
                    previousKey = keyBytes
                    if r.peek() &- 0x21 > 0x5D { canonical = false }  // whitespace (or worse) before the value
                }
                r.skipWhitespace()
                if let key {
                    let bit = UInt32(1) << UInt32(key.rawValue)
                    if seen & bit != 0 { throw .duplicateKey(field: key.name) }
                    seen |= bit
                    let start = r.i
                    if Self.earlyKeys & bit != 0, try decodeEarly(key) {
                        present |= bit
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(r.i),
                                                        isString: r.bytes[start] == UInt8(ascii: "\""), hasEscapes: false)
                    } else { switch r.peek() {
                    case UInt8(ascii: "\""):
                        let token = try r.scanString()
                        present |= bit
                        if token.hasEscapes { escaped |= bit }
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(token.end),
                                                        isString: true, hasEscapes: token.hasEscapes)
                    case UInt8(ascii: "n"):
                        try r.literal("null")  // null: absent
                        canonical = false
                    default:
                        try r.skipValue()
                        present |= bit
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(r.i),
                                                        isString: false, hasEscapes: false)
                    } }
                } else if let name {
                    let start = r.i
                    let value = try r.parseValue()
                    if canonical, !Self.isCanonicalScalar(value, r.bytes[start..<r.i]) { canonical = false }
                    if case .null = value {
                        if extra.keys.contains(name) { throw .duplicateKey(field: name) }
                        extra[name] = .null  // kept for duplicate detection; dropped below
                    } else if extra.updateValue(value, forKey: name) != nil {
                        throw .duplicateKey(field: name)
                    }
                }
                let b = r.peek()
                if b == UInt8(ascii: ",") { r.i += 1; continue }
                if b == UInt8(ascii: "}") { r.i += 1; break }
                canonical = false
                r.skipWhitespace()
                let c = r.peek()
                if c == UInt8(ascii: ",") { r.i += 1; continue }
                if c == UInt8(ascii: "}") { r.i += 1; break }
                throw r.unexpected("',' or '}'")
            }
        }
        if !r.atEnd { canonical = false }
        r.skipWhitespace()
        guard r.atEnd else { throw r.unexpected("end of line after the object") }
        if !extra.isEmpty { extra = extra.filter { if case .null = $0.value { false } else { true } } }
        return try build()
    }

    /// Decodes the common plain forms of a few fields while scanning, so
    /// they are not scanned twice: the session id when it repeats the last
    /// line's, a canonical `t`, a plain positive `seq`, and a route-value
    /// object under `value`. Returns whether it consumed the value (the
    /// reader is then just past it); otherwise the reader has not moved
    /// and the general scan handles the value.
    @inline(__always)
    mutating func decodeEarly(_ key: CanonicalKey) throws(EventParseError) -> Bool {
        let b = r.bytes
        let i = r.i
        switch key {
        case .session:
            let n = storage.sessionBytes.count
            guard n > 0, i + n + 2 <= b.count, b[i] == UInt8(ascii: "\""), b[i + n + 1] == UInt8(ascii: "\""),
                  memcmp(storage.sessionBytes.baseAddress!, b.baseAddress! + i + 1, n) == 0
            else { return false }
            early.session = storage.session
            r.i = i + n + 2
            return true
        case .t:
            guard i + 26 <= b.count, b[i] == UInt8(ascii: "\""), b[i + 25] == UInt8(ascii: "\""),
                  let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: b[(i + 1)..<(i + 25)]))
            else { return false }
            early.t = t
            r.i = i + 26
            return true
        case .seq:
            // 1 to 18 digits, no sign, no leading zero, then a delimiter.
            var k = i
            var value = 0
            while k < b.count, k - i < 18 {
                let d = b[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                value = value * 10 + Int(d)
                k += 1
            }
            guard k > i, b[i] != UInt8(ascii: "0"), k < b.count,
                  b[k] == UInt8(ascii: ",") || b[k] == UInt8(ascii: "}")
            else { return false }
            early.seq = value
            r.i = k
            return true
        case .value:
            guard i < b.count, b[i] == UInt8(ascii: "{") else { return false }
            return decodeRouteEarly()
        default:
            return false
        }
    }

    /// A route value written `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}`
    /// exactly (the canonical layout, escapes allowed) at `i`: the route, the
    /// offset just past it, and whether neither string has escapes. `nil` for
    /// anything else, which the general decoder then handles.
    @inline(__always)
    func plainRoute(at i: Int) -> (RouteValue, Int, Bool)? {
        let b = r.bytes
        func has(_ literal: StaticString, at offset: Int) -> Bool {
            let n = literal.utf8CodeUnitCount
            return offset + n <= b.count && memcmp(b.baseAddress! + offset, literal.utf8Start, n) == 0
        }
        var sub = r
        var id: JSONReader.StringToken? = nil
        if has(#"{"id":""#, at: i) {
            sub.i = i + 6
            guard let token = try? sub.scanString(), has(#","type":""#, at: sub.i) else { return nil }
            id = token
            sub.i += 8
        } else if has(#"{"type":""#, at: i) {
            sub.i = i + 8
        } else {
            return nil
        }
        guard let type = try? sub.scanString(), type.end > type.start, sub.peek() == UInt8(ascii: "}") else { return nil }
        let names = storage.names
        let route = RouteValue(type: sub.name(type, names), id: id.map { sub.name($0, names) })
        return (route, sub.i + 1, !type.hasEscapes && !(id?.hasEscapes ?? false))
    }

    /// Decodes a route-value object under `value` during the scan; `false`
    /// (reader not moved) when it is not one.
    @inline(never)
    mutating func decodeRouteEarly() -> Bool {
        let i = r.i
        if let (route, end, plain) = plainRoute(at: i) {
            early.route = route
            early.routeIsCanonical = plain
            r.i = end
            return true
        }
        var sub = r
        sub.depth = 1
        do {
            early.route = try Self.route(&sub, field: "value", names: storage.names)
        } catch {
            return false  // not a route value: scanned generally (an extra field, or an error there)
        }
        if canonical {
            let route = early.route!
            // With data: canonical when written again exactly as it is.
            early.routeIsCanonical = route.data == nil
                ? Self.isCanonicalRoute(route, r.bytes[i..<sub.i]) : writesBack(i..<sub.i) { $0.write(route) }
        }
        r.i = sub.i
        return true
    }

    // MARK: Canonical form

    /// Whether the decoded fields are written back exactly as they appear:
    /// `seq` and `t` in their canonical forms, strings without escapes, plain
    /// integers, and `meta`, objects and arrays exactly as ``CanonicalWriter``
    /// writes them again (restored states are not checked: never canonical).
    func fieldsAreCanonical(_ kind: EventKind, meta: [String: JSONValue]?) -> Bool {
        guard early.seq != nil, early.t != nil, escaped & present == 0 else { return false }
        if has(.cause), !plainInteger(.cause) { return false }
        if let meta, !writesBack(.meta, { $0.write(object: meta) }) { return false }
        switch kind {
        case .stackPush: return early.routeIsCanonical
        case .stackPop: return !has(.count) || plainInteger(.count)
        case .splitSelect(_, _, let selection): return writesBack(.selection) { $0.write(selection) }
        case .stackSet(_, let path): return writesBack(.path) { $0.write(path) }
        case .tabsDefine(let tabs): return writesBack(.tabs) { $0.write(.array(tabs.map { .string($0) })) }
        case .sessionStart(let app, let device):
            if let app, !writesBack(.app, { $0.write(object: app) }) { return false }
            if let device, !writesBack(.device, { $0.write(object: device) }) { return false }
            return true
        case .stateRestore: return false
        default: return true
        }
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

    // MARK: Building the event

    mutating func build() throws(EventParseError) -> Event {
        let session: String
        if let known = early.session { session = known } else { session = try sessionID() }
        guard !session.isEmpty else { throw .invalidValue(field: "session", reason: "must not be empty") }
        let (tag, type) = try kindTag()
        guard has(.t) else { throw .missingField(field: "t") }
        let t: Timestamp
        if let known = early.t { t = known } else { t = try timestamp(.t) }
        var seq = 0
        if has(.seq) {
            if let known = early.seq { seq = known } else { seq = try integer(.seq) }
            guard seq >= 1 else { throw .invalidValue(field: "seq", reason: "must be ≥ 1, found \(seq)") }
        }
        let scene = has(.scene) ? try string(.scene) : nil
        let cause = has(.cause) ? try integer(.cause) : nil
        let meta = has(.meta) ? try object(.meta) : nil

        var used: UInt32 = 0
        let kind: EventKind
        switch tag {
        case .stack_push:
            used = Self.bit(.stack) | Self.bit(.value)
            let stack = try requiredString(.stack)
            if let route = early.route {
                kind = .stackPush(stack: stack, value: route)
            } else {
                kind = .stackPush(stack: stack, value: try requiredRoute(.value))
            }
        case .stack_pop:
            used = Self.bit(.stack) | Self.bit(.count)
            var count: Int? = nil
            if has(.count) {
                let c = try integer(.count)
                guard c >= 1 else { throw .invalidValue(field: "count", reason: "must be ≥ 1, found \(c)") }
                count = c
            }
            kind = .stackPop(stack: try requiredString(.stack), count: count)
        case .tab_select:
            used = Self.bit(.tab)
            kind = .tabSelect(tab: try requiredString(.tab))
        case .mark:
            used = Self.bit(.label)
            kind = .mark(label: try requiredString(.label))
        case .modal_present:
            used = Self.bit(.modal) | Self.bit(.style)
            let modal = try requiredString(.modal)
            let style: ModalStyle? = has(.style) ? try enumeration(.style) : nil
            kind = .modalPresent(modal: modal, style: style)
        case .modal_dismiss:
            used = Self.bit(.modal)
            kind = .modalDismiss(modal: has(.modal) ? try string(.modal) : nil)
        case .split_select:
            used = Self.bit(.split) | Self.bit(.column) | Self.bit(.selection)
            let split = has(.split) ? try string(.split) : nil
            guard has(.column) else { throw .missingField(field: "column") }
            let column: SplitColumn = try enumeration(.column)
            guard has(.selection) else { throw .missingField(field: "selection") }
            kind = .splitSelect(split: split, column: column, selection: try routes(.selection))
        case .stack_popToRoot:
            used = Self.bit(.stack)
            kind = .stackPopToRoot(stack: try requiredString(.stack))
        case .stack_set:
            used = Self.bit(.stack) | Self.bit(.path)
            let stack = try requiredString(.stack)
            guard has(.path) else { throw .missingField(field: "path") }
            kind = .stackSet(stack: stack, path: try routes(.path))
        case .url_open:
            used = Self.bit(.url)
            kind = .urlOpen(url: try requiredString(.url))
        case .session_start:
            used = Self.bit(.app) | Self.bit(.device)
            kind = .sessionStart(app: has(.app) ? try object(.app) : nil,
                                 device: has(.device) ? try object(.device) : nil)
        case .session_end:
            kind = .sessionEnd
        case .scene_open:
            kind = .sceneOpen
        case .scene_close:
            kind = .sceneClose
        case .tabs_define:
            used = Self.bit(.tabs)
            guard has(.tabs) else { throw .missingField(field: "tabs") }
            kind = .tabsDefine(tabs: try strings(.tabs))
        case .tab_visibility:
            used = Self.bit(.tab) | Self.bit(.hidden)
            let tab = try requiredString(.tab)
            guard has(.hidden) else { throw .missingField(field: "hidden") }
            kind = .tabVisibility(tab: tab, hidden: try bool(.hidden))
        case .split_visibility:
            used = Self.bit(.split) | Self.bit(.visibility)
            let split = try requiredString(.split)
            guard has(.visibility) else { throw .missingField(field: "visibility") }
            kind = .splitVisibility(split: split, visibility: try enumeration(.visibility))
        case .layout_change:
            used = Self.bit(.sizeClass)
            guard has(.sizeClass) else { throw .missingField(field: "sizeClass") }
            kind = .layoutChange(sizeClass: try enumeration(.sizeClass))
        case .state_restore:
            used = Self.bit(.state)
            guard has(.state) else { throw .missingField(field: "state") }
            let (state, canonical) = try SceneState.decodeRestore(try object(.state))
            kind = .stateRestore(state: state, json: canonical)
        case .other:
            kind = .other(type: type)
        }

        // Known names that this kind does not define are ordinary extra fields.
        let common: UInt32 = CanonicalKey.commonMask
        let leftover = present & ~used & ~common
        if canonical { storage.lastLineIsCanonical = leftover == 0 && fieldsAreCanonical(kind, meta: meta) }
        if leftover != 0 {
            for key in CanonicalKey.allCases where leftover & (UInt32(1) << UInt32(key.rawValue)) != 0 {
                var sub = reader(at: key)
                extra[key.name] = try sub.parseValue()
            }
        }
        return Event(session: session, seq: seq, t: t, scene: scene, kind: kind,
                     cause: cause, meta: meta, extra: extra)
    }

    /// The session id, reusing the previous line's String when it is the same.
    func sessionID() throws(EventParseError) -> String {
        guard has(.session) else { throw .missingField(field: "session") }
        guard let token = stringToken(.session) else {
            var sub = reader(at: .session)
            throw wrongType("session", "a string", &sub)
        }
        if token.hasEscapes { return r.string(token) }
        return storage.session(UnsafeRawBufferPointer(rebasing: r.bytes[token.start..<token.end]))
    }

    /// The event kind, matched on the bytes of `type`; the type string is
    /// only made for kinds navlog does not know.
    func kindTag() throws(EventParseError) -> (KindTag, String) {
        guard has(.type) else { throw .missingField(field: "type") }
        guard let token = stringToken(.type) else {
            var sub = reader(at: .type)
            throw wrongType("type", "a string", &sub)
        }
        let sub = r
        guard token.end > token.start else { throw .invalidValue(field: "type", reason: "must not be empty") }
        if !token.hasEscapes, let tag = KindTag.match(name: UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return (tag, "")
        }
        let text = sub.string(token)
        if token.hasEscapes, let tag = KindTag.allCases.first(where: { "\($0.name)" == text }), tag != .other {
            return (tag, "")
        }
        return (.other, text)
    }

    // MARK: Field decoding

    @inline(__always) static func bit(_ key: CanonicalKey) -> UInt32 { UInt32(1) << UInt32(key.rawValue) }

    /// The fields ``decodeEarly(_:)`` knows.
    @inline(__always) static var earlyKeys: UInt32 { bit(.session) | bit(.t) | bit(.seq) | bit(.value) }

    @inline(__always) func has(_ key: CanonicalKey) -> Bool { present & (UInt32(1) << UInt32(key.rawValue)) != 0 }

    @inline(__always) func reader(at key: CanonicalKey) -> JSONReader {
        var sub = r
        sub.i = Int(slots[key.rawValue].start)
        sub.depth = 1
        return sub
    }

    /// The scanned string token of a field known to hold a string.
    @inline(__always) func stringToken(_ key: CanonicalKey) -> JSONReader.StringToken? {
        let slot = slots[key.rawValue]
        guard slot.isString else { return nil }
        return JSONReader.StringToken(start: Int(slot.start) + 1, end: Int(slot.end), hasEscapes: slot.hasEscapes)
    }

    func requiredString(_ key: CanonicalKey) throws(EventParseError) -> String {
        guard has(key) else { throw .missingField(field: key.name) }
        return try string(key)
    }

    func string(_ key: CanonicalKey) throws(EventParseError) -> String {
        guard let token = stringToken(key) else {
            var sub = reader(at: key)
            throw wrongType(key.name, "a string", &sub)
        }
        if token.hasEscapes { return r.string(token) }
        return storage.names.string(UnsafeRawBufferPointer(rebasing: r.bytes[token.start..<token.end]))
    }

    func integer(_ key: CanonicalKey) throws(EventParseError) -> Int {
        let slot = slots[key.rawValue]
        let start = Int(slot.start), end = Int(slot.end)
        let b = r.bytes
        let first = b[start]
        guard first == UInt8(ascii: "-") || (first &- UInt8(ascii: "0")) < 10 else {
            var sub = reader(at: key)
            throw wrongType(key.name, "an integer", &sub)
        }
        var value = 0
        var k = start
        let negative = first == UInt8(ascii: "-")
        if negative { k += 1 }
        while k < end {
            let d = b[k] &- UInt8(ascii: "0")
            guard d < 10 else {
                throw .wrongType(field: key.name, expected: "an integer", found: "a number with a fraction or exponent")
            }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int(d)) : m.addingReportingOverflow(Int(d))
            if o1 || o2 {
                // Keep scanning: a fraction or exponent later is the better reason.
                var j = k
                while j < end, b[j] &- UInt8(ascii: "0") < 10 { j += 1 }
                if j < end {
                    throw .wrongType(field: key.name, expected: "an integer", found: "a number with a fraction or exponent")
                }
                throw .invalidValue(field: key.name, reason: "integer out of range")
            }
            value = s
            k += 1
        }
        return value
    }

    func bool(_ key: CanonicalKey) throws(EventParseError) -> Bool {
        var sub = reader(at: key)
        switch sub.peek() {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw wrongType(key.name, "a boolean", &sub)
        }
    }

    func timestamp(_ key: CanonicalKey) throws(EventParseError) -> Timestamp {
        guard let token = stringToken(key) else {
            var sub = reader(at: key)
            throw wrongType(key.name, "an RFC 3339 string", &sub)
        }
        let sub = r
        if !token.hasEscapes,
           let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return t
        }
        if !token.hasEscapes,
           let t = Timestamp(rfc3339Bytes: UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return t
        }
        let text = sub.string(token)
        if token.hasEscapes, let t = Timestamp(rfc3339: text) { return t }
        throw .invalidValue(field: key.name, reason: Timestamp.refusal(rfc3339: text))
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: CanonicalKey) throws(EventParseError) -> E
    where E.RawValue == String {
        let s = try string(key)
        guard let v = E(rawValue: s) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(field: key.name, reason: "\"\(s.prefix(64))\" is not one of \(allowed)")
        }
        return v
    }

    func object(_ key: CanonicalKey) throws(EventParseError) -> [String: JSONValue] {
        var sub = reader(at: key)
        guard sub.peek() == UInt8(ascii: "{") else { throw wrongType(key.name, "an object", &sub) }
        sub.depth = 0
        return try sub.parseObjectMembers()
    }

    func strings(_ key: CanonicalKey) throws(EventParseError) -> [String] {
        var sub = reader(at: key)
        guard sub.peek() == UInt8(ascii: "[") else { throw wrongType(key.name, "an array of strings", &sub) }
        sub.i += 1
        var out: [String] = []
        sub.skipWhitespace()
        if sub.peek() == UInt8(ascii: "]") { return out }
        while true {
            sub.skipWhitespace()
            guard sub.peek() == UInt8(ascii: "\"") else {
                throw wrongType("\(key.name)[\(out.count)]", "a string", &sub)
            }
            out.append(sub.string(try sub.scanString()))
            sub.skipWhitespace()
            if sub.peek() == UInt8(ascii: ",") { sub.i += 1; continue }
            return out  // validated by the first pass: this is ']'
        }
    }

    func requiredRoute(_ key: CanonicalKey) throws(EventParseError) -> RouteValue {
        guard has(key) else { throw .missingField(field: key.name) }
        var sub = reader(at: key)
        return try Self.route(&sub, field: key.name, names: storage.names)
    }

    func routes(_ key: CanonicalKey) throws(EventParseError) -> [RouteValue] {
        var sub = reader(at: key)
        guard sub.peek() == UInt8(ascii: "[") else { throw wrongType(key.name, "an array of route values", &sub) }
        sub.i += 1
        var out: [RouteValue] = []
        sub.skipWhitespace()
        if sub.peek() == UInt8(ascii: "]") { return out }
        while true {
            sub.skipWhitespace()
            out.append(try Self.route(&sub, field: key.name, index: out.count, names: storage.names))
            sub.skipWhitespace()
            if sub.peek() == UInt8(ascii: ",") { sub.i += 1; continue }
            return out
        }
    }

    /// Decodes a route value at the reader: an object keeping exactly
    /// `type` (non-empty string), `id` (string or integer literal) and `data`.
    static func route(
        _ sub: inout JSONReader, field: String, index: Int? = nil, names: StringInterner
    ) throws(EventParseError) -> RouteValue {
        func path() -> String { index.map { "\(field)[\($0)]" } ?? field }
        guard sub.peek() == UInt8(ascii: "{") else { throw wrongTypeStatic(path(), "a route value object", &sub) }
        sub.i += 1
        var type: String? = nil
        var id: String? = nil
        var data: JSONValue? = nil
        var seen: UInt8 = 0
        sub.skipWhitespace()
        if sub.peek() == UInt8(ascii: "}") {
            sub.i += 1
        } else {
            while true {
                sub.skipWhitespace()
                let key = try sub.scanString()
                try sub.expect(UInt8(ascii: ":"), "':'")
                sub.skipWhitespace()
                let isNull = sub.peek() == UInt8(ascii: "n")
                var name: String? = nil
                let bit: UInt8
                if sub.equals(key, "type") { bit = 1 } else if sub.equals(key, "id") { bit = 2 } else if sub.equals(key, "data") { bit = 4 } else {
                    let n = sub.string(key)
                    name = n
                    bit = n == "type" ? 1 : n == "id" ? 2 : n == "data" ? 4 : 0
                }
                if bit != 0 {
                    if seen & bit != 0 { throw .duplicateKey(field: "\(path()).\(name ?? (bit == 1 ? "type" : bit == 2 ? "id" : "data"))") }
                    seen |= bit
                }
                switch bit {
                case 1 where !isNull:
                    guard sub.peek() == UInt8(ascii: "\"") else { throw wrongTypeStatic("\(path()).type", "a string", &sub) }
                    type = sub.name(try sub.scanString(), names)
                case 2 where !isNull:
                    if sub.peek() == UInt8(ascii: "\"") {
                        id = sub.name(try sub.scanString(), names)
                    } else {
                        let start = sub.i
                        let b = sub.peek()
                        guard b == UInt8(ascii: "-") || (b &- UInt8(ascii: "0")) < 10 else {
                            throw wrongTypeStatic("\(path()).id", "a string or an integer", &sub)
                        }
                        guard try sub.scanNumber() else {
                            throw .wrongType(field: "\(path()).id", expected: "a string or an integer",
                                             found: "a number with a fraction or exponent")
                        }
                        id = names.string(UnsafeRawBufferPointer(rebasing: sub.bytes[start..<sub.i]))
                    }
                case 4 where !isNull:
                    sub.depth += 1
                    data = try sub.parseValue()
                    sub.depth -= 1
                default:
                    try sub.skipValue()  // null, or a field a route value does not keep
                }
                sub.skipWhitespace()
                if sub.peek() == UInt8(ascii: ",") { sub.i += 1; continue }
                // Checked here too: a route under `value` is decoded during the scan.
                guard sub.peek() == UInt8(ascii: "}") else { throw sub.unexpected("',' or '}'") }
                sub.i += 1
                break
            }
        }
        guard let type else { throw .missingField(field: "\(path()).type") }
        guard !type.isEmpty else { throw .invalidValue(field: "\(path()).type", reason: "must not be empty") }
        return RouteValue(type: type, id: id, data: data)
    }

    func wrongType(_ field: String, _ expected: String, _ sub: inout JSONReader) -> EventParseError {
        Self.wrongTypeStatic(field, expected, &sub)
    }

    static func wrongTypeStatic(_ field: String, _ expected: String, _ sub: inout JSONReader) -> EventParseError {
        let found = (try? sub.parseValue())?.typeName ?? "invalid JSON"
        return .wrongType(field: field, expected: expected, found: found)
    }

    // MARK: Keys

    /// The known field an escape-free key names, if any.
    @inline(__always) func match(_ k: JSONReader.StringToken) -> CanonicalKey? {
        if k.hasEscapes { return nil }
        let len = k.end - k.start
        guard len >= 1, len <= 10 else { return nil }
        let b = r.bytes
        switch b[k.start] {
        case UInt8(ascii: "a"): return r.equals(k, "app") ? .app : nil
        case UInt8(ascii: "c"):
            if r.equals(k, "cause") { return .cause }
            if r.equals(k, "column") { return .column }
            if r.equals(k, "count") { return .count }
            return nil
        case UInt8(ascii: "d"): return r.equals(k, "device") ? .device : nil
        case UInt8(ascii: "h"): return r.equals(k, "hidden") ? .hidden : nil
        case UInt8(ascii: "l"): return r.equals(k, "label") ? .label : nil
        case UInt8(ascii: "m"):
            if r.equals(k, "meta") { return .meta }
            if r.equals(k, "modal") { return .modal }
            return nil
        case UInt8(ascii: "p"): return r.equals(k, "path") ? .path : nil
        case UInt8(ascii: "s"):
            switch len {
            case 3: return r.equals(k, "seq") ? .seq : nil
            case 5:
                if r.equals(k, "scene") { return .scene }
                if r.equals(k, "split") { return .split }
                if r.equals(k, "stack") { return .stack }
                if r.equals(k, "state") { return .state }
                if r.equals(k, "style") { return .style }
                return nil
            case 7: return r.equals(k, "session") ? .session : nil
            case 9:
                if r.equals(k, "selection") { return .selection }
                if r.equals(k, "sizeClass") { return .sizeClass }
                return nil
            default: return nil
            }
        case UInt8(ascii: "t"):
            switch len {
            case 1: return .t
            case 3: return r.equals(k, "tab") ? .tab : nil
            case 4:
                if r.equals(k, "tabs") { return .tabs }
                if r.equals(k, "type") { return .type }
                return nil
            default: return nil
            }
        case UInt8(ascii: "u"): return r.equals(k, "url") ? .url : nil
        case UInt8(ascii: "v"):
            if r.equals(k, "value") { return .value }
            if r.equals(k, "visibility") { return .visibility }
            return nil
        default: return nil
        }
    }
}

/// Field values a ``LineParser`` decoded during its scan.
struct EarlyValues {
    var session: String?
    var t: Timestamp?
    var seq: Int?
    var route: RouteValue?
    /// Whether `route` was written exactly in its canonical form.
    var routeIsCanonical = false
}

/// Where a known field's value lies in the line.
struct ValueSlot {
    /// Offset of the value's first byte (the quote, for a string).
    var start: Int32
    /// Offset just past the value (of the closing quote, for a string).
    var end: Int32
    var isString: Bool
    var hasEscapes: Bool
}

/// The event kinds the contract defines, matched on raw bytes.
enum KindTag: CaseIterable {
    case session_start, session_end, scene_open, scene_close, tabs_define, tab_select, tab_visibility
    case stack_push, stack_pop, stack_popToRoot, stack_set, split_select, split_visibility
    case modal_present, modal_dismiss, url_open, state_restore, layout_change, mark, other

    var name: StaticString {
        switch self {
        case .session_start: "session.start"
        case .session_end: "session.end"
        case .scene_open: "scene.open"
        case .scene_close: "scene.close"
        case .tabs_define: "tabs.define"
        case .tab_select: "tab.select"
        case .tab_visibility: "tab.visibility"
        case .stack_push: "stack.push"
        case .stack_pop: "stack.pop"
        case .stack_popToRoot: "stack.popToRoot"
        case .stack_set: "stack.set"
        case .split_select: "split.select"
        case .split_visibility: "split.visibility"
        case .modal_present: "modal.present"
        case .modal_dismiss: "modal.dismiss"
        case .url_open: "url.open"
        case .state_restore: "state.restore"
        case .layout_change: "layout.change"
        case .mark: "mark"
        case .other: ""
        }
    }

    /// The kind whose name these escape-free bytes spell, if any: the bytes
    /// as two words (``ShortBytes``), looked up in a table of the names'
    /// words (a hash and a compare or two, not a compare a byte).
    @inline(__always)
    static func match(name raw: UnsafeRawBufferPointer) -> KindTag? {
        let n = raw.count
        guard n >= 4, n <= ShortBytes.maxCount else { return nil }
        let (w0, w1) = ShortBytes.words(raw)
        return KindNameTable.shared.find(w0, w1, count: n)
    }
}

/// Every kind's name as ``ShortBytes`` words, in an open-addressing table
/// made once (all names are 4 to 16 bytes).
struct KindNameTable: @unchecked Sendable {
    private struct Slot {
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        /// 0 for an empty slot.
        var count = 0
        var tag = KindTag.other
    }

    private static let bits = 6
    private let slots: UnsafeMutablePointer<Slot>

    static let shared = KindNameTable()

    private init() {
        slots = .allocate(capacity: 1 << Self.bits)
        slots.initialize(repeating: Slot(), count: 1 << Self.bits)
        for tag in KindTag.allCases where tag != .other {
            let name = tag.name
            let raw = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            let (w0, w1) = ShortBytes.words(raw)
            var slot = Self.slot(w0, w1, raw.count)
            while slots[slot].count != 0 { slot = (slot + 1) & ((1 << Self.bits) - 1) }
            slots[slot] = Slot(w0: w0, w1: w1, count: raw.count, tag: tag)
        }
    }

    @inline(__always)
    private static func slot(_ w0: UInt64, _ w1: UInt64, _ count: Int) -> Int {
        let mixed = (w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - bits))
    }

    /// The kind of the name with these words and byte count, if any.
    @inline(__always)
    func find(_ w0: UInt64, _ w1: UInt64, count: Int) -> KindTag? {
        var slot = Self.slot(w0, w1, count)
        while true {
            let s = slots[slot]
            if s.count == 0 { return nil }
            if s.w0 == w0, s.w1 == w1, s.count == count { return s.tag }
            slot = (slot + 1) & ((1 << Self.bits) - 1)
        }
    }
}
