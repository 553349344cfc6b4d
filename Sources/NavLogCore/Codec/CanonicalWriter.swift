/// Writes navlog's canonical JSON (contract §5): keys sorted by code point at
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
        if writeCommonEvent(e) { return }
        writeGeneral(e)
    }

    /// Writes any event, a field at a time.
    mutating func writeGeneral(_ e: Event) {
        bytes.append(UInt8(ascii: "{"))
        if e.extra.isEmpty {
            // Only the keys this kind can have, in canonical (bit) order.
            var keys = CanonicalKey.commonMask | Self.kindKeys(e.kind)
            while keys != 0 {
                writeField(CanonicalKey(rawValue: keys.trailingZeroBitCount)!, of: e)
                keys &= keys - 1
            }
        } else {
            let extraKeys = e.extra.keys.sorted(by: utf8Less)
            var x = 0
            for key in CanonicalKey.allCases {
                while x < extraKeys.count, utf8Less(extraKeys[x], key.name) {
                    beginField(extraKeys[x])
                    write(e.extra[extraKeys[x]]!)
                    x += 1
                }
                writeField(key, of: e)
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

    /// The kind-specific keys an event of this kind can have (see ``writeField(_:of:)``).
    private static func kindKeys(_ kind: EventKind) -> UInt32 {
        switch kind {
        case .sessionStart: CanonicalKey.app.bit | CanonicalKey.device.bit
        case .splitSelect: CanonicalKey.column.bit | CanonicalKey.selection.bit | CanonicalKey.split.bit
        case .splitVisibility: CanonicalKey.split.bit | CanonicalKey.visibility.bit
        case .stackPop: CanonicalKey.count.bit | CanonicalKey.stack.bit
        case .stackPush: CanonicalKey.stack.bit | CanonicalKey.value.bit
        case .stackPopToRoot: CanonicalKey.stack.bit
        case .stackSet: CanonicalKey.path.bit | CanonicalKey.stack.bit
        case .tabVisibility: CanonicalKey.hidden.bit | CanonicalKey.tab.bit
        case .tabSelect: CanonicalKey.tab.bit
        case .mark: CanonicalKey.label.bit
        case .modalPresent: CanonicalKey.modal.bit | CanonicalKey.style.bit
        case .modalDismiss: CanonicalKey.modal.bit
        case .layoutChange: CanonicalKey.sizeClass.bit
        case .stateRestore: CanonicalKey.state.bit
        case .tabsDefine: CanonicalKey.tabs.bit
        case .urlOpen: CanonicalKey.url.bit
        case .sessionEnd, .sceneOpen, .sceneClose, .other: 0
        }
    }

    private mutating func writeField(_ key: CanonicalKey, of e: Event) {
        switch key {
        case .app:
            if case .sessionStart(let app?, _) = e.kind { beginField(key); write(object: app) }
        case .cause:
            if let c = e.cause { beginField(key); writeInt(c) }
        case .column:
            if case .splitSelect(_, let column, _) = e.kind { beginField(key); writeString(column.rawValue) }
        case .count:
            if case .stackPop(_, let count?) = e.kind { beginField(key); writeInt(count) }
        case .device:
            if case .sessionStart(_, let device?) = e.kind { beginField(key); write(object: device) }
        case .hidden:
            if case .tabVisibility(_, let hidden) = e.kind { beginField(key); appendASCII(hidden ? "true" : "false") }
        case .label:
            if case .mark(let label) = e.kind { beginField(key); writeString(label) }
        case .meta:
            if let meta = e.meta { beginField(key); write(object: meta) }
        case .modal:
            switch e.kind {
            case .modalPresent(let modal, _), .modalDismiss(let modal?): beginField(key); writeString(modal)
            default: break
            }
        case .path:
            if case .stackSet(_, let path) = e.kind { beginField(key); write(path) }
        case .scene:
            if let scene = e.scene { beginField(key); writeString(scene) }
        case .selection:
            if case .splitSelect(_, _, let selection) = e.kind { beginField(key); write(selection) }
        case .seq:
            if e.seq > 0 { beginField(key); writeInt(e.seq) }  // 0: not yet assigned
        case .session:
            beginField(key); writeString(e.session)
        case .sizeClass:
            if case .layoutChange(let sizeClass) = e.kind { beginField(key); writeString(sizeClass.rawValue) }
        case .split:
            switch e.kind {
            case .splitSelect(let split?, _, _), .splitVisibility(let split, _): beginField(key); writeString(split)
            default: break
            }
        case .stack:
            switch e.kind {
            case .stackPush(let stack, _), .stackPop(let stack, _), .stackPopToRoot(let stack), .stackSet(let stack, _):
                beginField(key); writeString(stack)
            default: break
            }
        case .state:
            if case .stateRestore(_, let json) = e.kind { beginField(key); write(object: json) }
        case .style:
            if case .modalPresent(_, let style?) = e.kind { beginField(key); writeString(style.rawValue) }
        case .t:
            beginField(key); writeTimestamp(e.t)
        case .tab:
            switch e.kind {
            case .tabSelect(let tab), .tabVisibility(let tab, _): beginField(key); writeString(tab)
            default: break
            }
        case .tabs:
            if case .tabsDefine(let tabs) = e.kind { beginField(key); writeStrings(tabs) }
        case .type:
            beginField(key); writeString(e.kind.typeName)
        case .url:
            if case .urlOpen(let url) = e.kind { beginField(key); writeString(url) }
        case .value:
            if case .stackPush(_, let value) = e.kind { beginField(key); write(value) }
        case .visibility:
            if case .splitVisibility(_, let visibility) = e.kind { beginField(key); writeString(visibility.rawValue) }
        }
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
