/// Writes navlog's canonical JSON (docs/events.md): keys sorted by code point at
/// every depth, no insignificant whitespace, non-ASCII kept as UTF-8, numbers
/// as written, `t` as UTC with milliseconds, `null` fields left out.
///
/// ```swift
/// var writer = CanonicalWriter()
/// writer.write(event)          // one line, no newline
/// writer.bytes.append(0x0A)
/// ```
///
/// The writer appends to ``bytes``; reuse one writer (``reset()``) across many
/// events to avoid reallocating.
public struct CanonicalWriter: Sendable {
    /// What has been written so far.
    public var bytes: [UInt8]
    /// The day prefix of the last timestamp written.
    var timestamps = CanonicalTimestampCache()
    /// The canonical bytes of the event's objects, when its parser has them
    /// already (``EventLineParser/writeCanonical(_:into:)``): written as they are.
    var writtenObjects = WrittenObjects()
    /// Where, in ``bytes``, the `seq` member of the last event written goes
    /// when that event has none yet (seq 0), or -1: the place
    /// ``append(_:seq:at:)`` puts it once the event is numbered.
    package internal(set) var seqSlot = -1

    /// The canonical bytes of an event's `app`, `device` and `meta`, those known.
    struct WrittenObjects: Sendable {
        var app: [UInt8]?
        var device: [UInt8]?
        var meta: [UInt8]?

        var isEmpty: Bool { app == nil && device == nil && meta == nil }

        func bytes(_ key: CanonicalKey) -> [UInt8]? {
            switch key {
            case .app: app
            case .device: device
            case .meta: meta
            default: nil
            }
        }
    }

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the buffer's capacity.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// What has been written, as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: JSON values

    /// Writes a JSON value canonically.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: appendASCII("null")
        case .bool(let b): appendASCII(b ? "true" : "false")
        case .number(let literal): appendUTF8(literal)
        case .string(let s): writeString(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            write(object: members)
        }
    }

    /// Writes a JSON object with its keys sorted.
    public mutating func write(object members: [String: JSONValue]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in members.sorted(by: { utf8Less($0.key, $1.key) }) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(key)
            bytes.append(UInt8(ascii: ":"))
            write(value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes a JSON string literal: `"` and `\` escaped, control characters
    /// as `\n`, `\t`, … or `\u00XX`; everything else as UTF-8.
    public mutating func writeString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            if !Self.needsEscaping(utf8) {
                bytes.append(contentsOf: utf8)
                return
            }
            var start = 0
            var i = 0
            let n = utf8.count
            while i < n {
                let b = utf8[i]
                if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                    if start < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                    appendEscape(b)
                    start = i + 1
                }
                i += 1
            }
            if start < n { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<n])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any byte is `"`, `\\` or below 0x20 (8 bytes at a time).
    @inline(__always)
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = utf8.count
        guard let base = UnsafeRawPointer(utf8.baseAddress) else { return false }
        var i = 0
        while i + 8 <= n {
            let v = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // Bytes ≥ 0x80 are written as they are.
            if PlainStringRun.specialBytes(in: v, controlBytes: true, nonASCII: false) != 0 { return true }
            i += 8
        }
        while i < n {
            let b = utf8[i]
            if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return true }
            i += 1
        }
        return false
    }

    mutating func appendEscape(_ b: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch b {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(hex[Int(b >> 4)])
            bytes.append(hex[Int(b & 0xF)])
        }
    }

    /// Writes a timestamp as a JSON string: `"2026-11-20T10:00:05.120Z"`.
    public mutating func writeTimestamp(_ t: Timestamp) {
        bytes.append(UInt8(ascii: "\""))
        timestamps.append(t, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a decimal integer.
    public mutating func writeInt(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        var v = value.magnitude
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            repeat {
                buf[19 - n] = UInt8(ascii: "0") &+ UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buf[(20 - n)...])
        }
    }

    // MARK: Events

    /// Writes an event's canonical line (no trailing newline).
    public mutating func write(_ e: Event) {
        seqSlot = -1
        if writeCommonEvent(e) { return }
        writeGeneral(e)
    }

    /// Appends `line`, the canonical line of an event without a seq whose
    /// ``seqSlot`` is `slot`, with `seq` put in: the canonical line of that
    /// event numbered `seq`, without writing the event again.
    package mutating func append(_ line: UnsafeRawBufferPointer, seq: Int, at slot: Int) {
        precondition(slot > 0 && slot < line.count && seq > 0, "not a seq slot of this line")
        // Typed, so that each part is appended as one copy, not byte by byte.
        let base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: slot))
        // `seq` is never the last member (`session` follows it): a comma after it when it is the first.
        beginField(.seq)
        writeInt(seq)
        if base[slot - 1] == UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + slot, count: line.count - slot))
    }

    /// Writes any event, a field at a time: the common keys and the keys
    /// of its kind's row (``KindSpec``), in canonical order, with its extra
    /// fields among them.
    mutating func writeGeneral(_ e: Event) {
        let (tag, fields) = e.kind.parts
        let keys = CanonicalKey.commonMask | tag.checks.mask
        bytes.append(UInt8(ascii: "{"))
        if e.extra.isEmpty {
            var left = keys
            while left != 0 {
                writeField(CanonicalKey(rawValue: left.trailingZeroBitCount)!, of: e, fields)
                left &= left - 1
            }
        } else {
            let extraKeys = e.extra.keys.sorted(by: utf8Less)
            var x = 0
            for key in CanonicalKey.allCases where keys & key.bit != 0 {
                while x < extraKeys.count, utf8Less(extraKeys[x], key.name) {
                    beginField(extraKeys[x])
                    write(e.extra[extraKeys[x]]!)
                    x += 1
                }
                writeField(key, of: e, fields)
            }
            while x < extraKeys.count {
                beginField(extraKeys[x])
                write(e.extra[extraKeys[x]]!)
                x += 1
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes a route value: `{"data":…,"id":"…","type":"…"}`.
    public mutating func write(_ v: RouteValue) {
        bytes.append(UInt8(ascii: "{"))
        if let data = v.data {
            appendASCII("\"data\":")
            write(data)
            bytes.append(UInt8(ascii: ","))
        }
        if let id = v.id {
            appendASCII("\"id\":")
            writeString(id)
            bytes.append(UInt8(ascii: ","))
        }
        appendASCII("\"type\":")
        writeString(v.type)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array of route values.
    public mutating func write(_ path: [RouteValue]) {
        bytes.append(UInt8(ascii: "["))
        for (i, v) in path.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            write(v)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `tabs.define`'s sections: `[{"name":"…","tabs":[…]},…]`.
    mutating func write(_ sections: [TabSection]) {
        bytes.append(UInt8(ascii: "["))
        for (i, section) in sections.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            appendASCII("{\"name\":")
            writeString(section.name)
            appendASCII(",\"tabs\":")
            writeStrings(section.tabs)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeStrings(_ items: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (i, s) in items.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(s)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts a member: a comma unless it is the object's first, then `"key":`.
    private mutating func beginField(_ key: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func beginField(_ key: CanonicalKey) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        key.quotedColon.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes field `key` of `e`, whose kind's fields are `f`, when it has
    /// a value (`key` is common or one of the kind's).
    private mutating func writeField(_ key: CanonicalKey, of e: Event, _ f: KindFields) {
        switch key {
        case .cause:
            if let c = e.cause { beginField(key); writeInt(c) }
        case .meta:
            if let meta = e.meta { beginField(key); write(object: meta, key) }
        case .scene:
            if let scene = e.scene { beginField(key); writeString(scene) }
        case .seq:
            if e.seq > 0 { beginField(key); writeInt(e.seq) } else { seqSlot = bytes.count }  // 0: not yet assigned
        case .session:
            beginField(key); writeString(e.session)
        case .t:
            beginField(key); writeTimestamp(e.t)
        case .type:
            beginField(key); writeString(e.kind.typeName)
        case .state:
            if let restored = f.restored { beginField(key); write(object: restored.json) }
        case .hidden:
            // `tab.visibility`'s boolean, or `tabs.customize`'s strings.
            if let flag = f.flag { beginField(key); appendASCII(flag ? "true" : "false") }
            if let hidden = f.hiddenTabs { beginField(key); writeStrings(hidden) }
        default:
            switch key.valueType {
            case .text:
                if let text = f.text { beginField(key); writeString(text) }
            case .enumeration:
                if let name = f.enumerationName(key) { beginField(key); writeString(name) }
            case .integer, .positiveInteger:
                if let value = f.integer { beginField(key); writeInt(value) }
            case .bool:
                if let flag = f.flag { beginField(key); appendASCII(flag ? "true" : "false") }
            case .strings:
                if let strings = f.strings { beginField(key); writeStrings(strings) }
            case .sections:
                if let sections = f.sections { beginField(key); write(sections) }
            case .route:
                if let route = f.route { beginField(key); write(route) }
            case .routes:
                if let routes = f.routes { beginField(key); write(routes) }
            case .object:
                if let object = f.object(key) { beginField(key); write(object: object, key) }
            case .restoredState, .timestamp:
                preconditionFailure("\(key.name) is written above")
            }
        }
    }

    /// Writes field `key`'s object, or its bytes when they are known.
    private mutating func write(object: [String: JSONValue], _ key: CanonicalKey) {
        if let written = writtenObjects.bytes(key) { return bytes.append(contentsOf: written) }
        write(object: object)
    }

    // MARK: Raw appends

    private mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendUTF8(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

/// Orders strings by their UTF-8 bytes, which is code point order.
@inlinable
public func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}

extension Event {
    /// The event's canonical NDJSON line, without the newline.
    public var canonicalLine: String {
        var writer = CanonicalWriter()
        writer.write(self)
        return writer.string
    }
}
