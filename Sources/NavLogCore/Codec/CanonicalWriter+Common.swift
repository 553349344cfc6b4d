#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The canonical line of a common event, written in one pass through a
/// pointer into scratch space and appended to ``CanonicalWriter/bytes`` once.
///
/// "Common" is every kind but `session.start`, `state.restore` and
/// `tabs.customize` (and `tabs.define` with `sections` or `searchTab`,
/// `layout.change` with `tabPresentation`), with no
/// route value holding `data`, no `meta` and no extra fields: nearly every
/// event of a real session. Anything else takes the general
/// path, which gives the same bytes (a test compares the two on every kind).
extension CanonicalWriter {
    /// Writes `e` if it is a common event; returns whether it did.
    mutating func writeCommonEvent(_ e: Event) -> Bool {
        guard let bound = Self.commonLineBound(e) else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            var line = RawLine(scratch.baseAddress!)
            line.writeCommon(e, timestamps: &timestamps)
            if line.seqSlot >= 0 { seqSlot = bytes.count + line.seqSlot }
            bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: line.count))
        }
        return true
    }

    /// Writes the canonical line of `e` (no newline) at `out`, which has room
    /// for `capacity` bytes, and returns its length — when `e` is a common
    /// event whose line surely fits; otherwise writes nothing and returns
    /// `nil` (use ``write(_:)``). Lets a caller write lines straight into its
    /// own buffer, with no copy. Package-only: the log writer's block
    /// buffer is the one caller; a raw pointer is no public API.
    package mutating func writeLine(_ e: Event, to out: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        guard let bound = Self.commonLineBound(e), bound <= capacity else { return nil }
        var line = RawLine(out.assumingMemoryBound(to: UInt8.self))
        line.writeCommon(e, timestamps: &timestamps)
        return line.count
    }

    /// The most bytes the canonical line of a common event can take, or
    /// `nil` when `e` is not common or could take over 8 KiB.
    static func commonLineBound(_ e: Event) -> Int? {
        guard e.meta == nil, e.extra.isEmpty else { return nil }
        // Strings whose bytes are written, for the space bound (escapes take
        // at most 6 bytes for 1).
        var stringBytes = e.session.utf8.count + (e.scene?.utf8.count ?? 0)
        switch e.kind {
        case .stackPush(let stack, let value):
            guard value.data == nil else { return nil }
            stringBytes += stack.utf8.count + value.type.utf8.count + (value.id?.utf8.count ?? 0)
        case .stackPop(let stack, _), .stackPopToRoot(let stack), .tabSelect(let stack), .tabVisibility(let stack, _),
             .mark(let stack), .modalPresent(let stack, _), .modalDismiss(let stack?), .urlOpen(let stack),
             .splitVisibility(let stack, _), .other(let stack):
            stringBytes += stack.utf8.count
        case .modalDismiss(nil), .layoutChange(_, nil), .sessionEnd, .sceneOpen, .sceneClose:
            break
        case .stackSet(let stack, let path):
            guard let bytes = Self.plainRouteBytes(path) else { return nil }
            stringBytes += stack.utf8.count + bytes
        case .splitSelect(let split, _, let selection):
            guard let bytes = Self.plainRouteBytes(selection) else { return nil }
            stringBytes += (split?.utf8.count ?? 0) + bytes
        case .tabsDefine(let tabs, nil, nil):
            stringBytes += tabs.reduce(tabs.count * 3) { $0 + $1.utf8.count }
        case .sessionStart, .stateRestore, .tabsDefine, .tabsCustomize, .layoutChange:
            // (`tabs.define` with sections or a search tab, `layout.change`
            // with a tab presentation: the general writer.)
            return nil
        }
        let bound = 256 + 6 * stringBytes
        return bound <= 8192 ? bound : nil
    }
}

extension CanonicalWriter {
    /// The string bytes and punctuation of routes without `data`, or nil
    /// when one has `data`.
    static func plainRouteBytes(_ routes: [RouteValue]) -> Int? {
        var total = 0
        for route in routes {
            guard route.data == nil else { return nil }
            total += 24 + route.type.utf8.count + (route.id?.utf8.count ?? 0)
        }
        return total
    }
}

/// Bytes written through a pointer; the caller made room for them
/// (``CanonicalWriter/commonLineBound(_:)``), so no append checks capacity.
struct RawLine {
    private let start: UnsafeMutablePointer<UInt8>
    private var p: UnsafeMutablePointer<UInt8>
    /// Where the `seq` member would be, in a line written without one (see ``CanonicalWriter/seqSlot``); -1 otherwise.
    private(set) var seqSlot = -1

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        self.p = start
    }

    var count: Int { p - start }

    @inline(__always) mutating func byte(_ b: UInt8) {
        p.pointee = b
        p += 1
    }

    @inline(__always) mutating func literal(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        p.update(from: s.utf8Start, count: n)
        p += n
    }

    /// A JSON string literal, escaped exactly as ``CanonicalWriter/writeString(_:)`` does.
    @inline(__always) mutating func string(_ s: String) {
        byte(UInt8(ascii: "\""))
        // A native string's bytes are read in place (no copy of the string).
        if s.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            var s = s
            s.withUTF8 { escaped($0) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A string's UTF-8, escaped where JSON needs it (no quotes).
    @inline(__always) private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        if !CanonicalWriter.needsEscaping(utf8) {
            p.update(from: base, count: utf8.count)
            p += utf8.count
            return
        }
        for b in utf8 {
            if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                var escape = CanonicalWriter(capacity: 8)
                escape.appendEscape(b)
                p.update(from: escape.bytes, count: escape.bytes.count)
                p += escape.bytes.count
            } else {
                byte(b)
            }
        }
    }

    /// A decimal integer.
    @inline(__always) mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            byte(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        if value < 0 { byte(UInt8(ascii: "-")) }
        var v = value.magnitude
        var digits = 0
        var probe = v
        repeat { digits += 1; probe /= 10 } while probe > 0
        var k = digits
        repeat {
            k -= 1
            p[k] = UInt8(ascii: "0") &+ UInt8(v % 10)
            v /= 10
        } while v > 0
        p += digits
    }

    /// `"key":`, preceded by a comma unless it is the object's first member.
    @inline(__always) mutating func key(_ quotedColon: StaticString, first: Bool = false) {
        if !first { byte(UInt8(ascii: ",")) }
        literal(quotedColon)
    }

    /// The route value `{"id":"…","type":"…"}` (no `data`).
    @inline(__always) mutating func route(_ v: RouteValue) {
        if let id = v.id {
            literal(#"{"id":"#)
            string(id)
            literal(#","type":"#)
        } else {
            literal(#"{"type":"#)
        }
        string(v.type)
        byte(UInt8(ascii: "}"))
    }

    /// `[route,route,…]`.
    @inline(__always) mutating func routes(_ values: [RouteValue]) {
        byte(UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { byte(UInt8(ascii: ",")) }
            route(v)
        }
        byte(UInt8(ascii: "]"))
    }

    /// A common event's line (see ``CanonicalWriter/writeCommonEvent(_:)``),
    /// keys in canonical order.
    mutating func writeCommon(_ e: Event, timestamps: inout CanonicalTimestampCache) {
        byte(UInt8(ascii: "{"))
        var first = true
        @inline(__always) func field(_ k: StaticString, _ line: inout RawLine) {
            line.key(k, first: first)
            first = false
        }
        // cause < column < count < hidden < label < modal < path < scene <
        // selection < seq < session < sizeClass < split < stack < style < t <
        // tab < tabs < type < url < value < visibility
        if let cause = e.cause { field(#""cause":"#, &self); int(cause) }
        switch e.kind {
        case .splitSelect(_, let column, _): field(#""column":"#, &self); string(column.rawValue)
        case .stackPop(_, let count?): field(#""count":"#, &self); int(count)
        case .tabVisibility(_, let hidden): field(#""hidden":"#, &self); literal(hidden ? "true" : "false")
        case .mark(let label): field(#""label":"#, &self); string(label)
        case .modalPresent(let modal, _), .modalDismiss(let modal?): field(#""modal":"#, &self); string(modal)
        case .stackSet(_, let path): field(#""path":"#, &self); routes(path)
        default: break
        }
        if let scene = e.scene { field(#""scene":"#, &self); string(scene) }
        if case .splitSelect(_, _, let selection) = e.kind { field(#""selection":"#, &self); routes(selection) }
        if e.seq > 0 { field(#""seq":"#, &self); int(e.seq) } else { seqSlot = count }
        field(#""session":"#, &self)
        string(e.session)
        switch e.kind {
        case .layoutChange(let sizeClass, _): key(#""sizeClass":"#); string(sizeClass.rawValue)
        case .splitVisibility(let split, _), .splitSelect(let split?, _, _): key(#""split":"#); string(split)
        case .stackPush(let stack, _), .stackPop(let stack, _), .stackPopToRoot(let stack), .stackSet(let stack, _):
            key(#""stack":"#); string(stack)
        case .modalPresent(_, let style?): key(#""style":"#); string(style.rawValue)
        default: break
        }
        key(#""t":""#)
        timestamps.write(e.t, to: UnsafeMutableRawPointer(p))
        p += 24
        byte(UInt8(ascii: "\""))
        switch e.kind {
        case .tabSelect(let tab), .tabVisibility(let tab, _): key(#""tab":"#); string(tab)
        case .tabsDefine(let tabs, _, _):
            key(#""tabs":["#)
            for (i, tab) in tabs.enumerated() {
                if i > 0 { byte(UInt8(ascii: ",")) }
                string(tab)
            }
            byte(UInt8(ascii: "]"))
        default: break
        }
        key(#""type":"#)
        string(e.kind.typeName)
        switch e.kind {
        case .urlOpen(let url): key(#""url":"#); string(url)
        case .stackPush(_, let value): key(#""value":"#); route(value)
        case .splitVisibility(_, let visibility): key(#""visibility":"#); string(visibility.rawValue)
        default: break
        }
        byte(UInt8(ascii: "}"))
    }
}
