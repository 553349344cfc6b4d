/// How one line is written in the style of another producer: the time
/// zone offset and fraction digits of `t`, and whether `seq` is written.
public struct ProducerLineStyle: Hashable, Sendable {
    /// The offset of `t`'s local time from UTC, in minutes (`120` writes
    /// `+02:00`, `-300` writes `-05:00`). Between -23:59 and +23:59.
    public var offsetMinutes: Int
    /// Digits after the seconds' point, 3 to 6.
    public var fractionDigits: Int
    /// The digits after the milliseconds (below `10^(fractionDigits-3)`),
    /// which navlog drops: the instant is the same to the millisecond.
    public var subMilliseconds: Int
    /// Whether the line has its `seq`. A line without one is numbered
    /// within its input (docs/events.md, "Numbering"): leave it out only
    /// where that gives the same seq.
    public var writesSeq: Bool

    public init(offsetMinutes: Int = 120, fractionDigits: Int = 3, subMilliseconds: Int = 0, writesSeq: Bool = true) {
        self.offsetMinutes = max(-1439, min(1439, offsetMinutes))
        self.fractionDigits = max(3, min(6, fractionDigits))
        var bound = 1
        for _ in 3..<self.fractionDigits { bound *= 10 }
        self.subMilliseconds = max(0, min(bound - 1, subMilliseconds))
        self.writesSeq = writesSeq
    }
}

/// Writes an event the way other producers write the same event: keys in
/// their own order (not sorted; the order differs between kinds), a space
/// after every `:` and `,` outside strings, `t` in local time with an
/// offset and 3–6 fraction digits, `seq` left out when the style says so.
/// Ingesting the line stores exactly what the event's canonical line
/// stores (given the style's `seq` rule).
///
/// ```swift
/// var writer = ProducerLineWriter()
/// writer.write(event, style: ProducerLineStyle(offsetMinutes: 120, fractionDigits: 5))
/// writer.bytes.append(0x0A)
/// ```
///
/// The values are the canonical writer's; only the line around them
/// differs. The key order comes from the per-kind field table
/// (``KindSpec``): one of three orders of the common keys around the
/// kind's own fields, chosen by the kind.
public struct ProducerLineWriter: Sendable {
    /// What has been written so far.
    public var bytes: [UInt8]
    private var canonical = CanonicalWriter()
    /// Member `(key, value)` byte ranges of the canonical line.
    private var members: [(key: Range<Int>, value: Range<Int>, rank: Int)] = []

    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the buffer's capacity.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// Writes `e`'s line in `style` (no newline).
    public mutating func write(_ e: Event, style: ProducerLineStyle) {
        canonical.reset()
        canonical.write(e)
        splitMembers(Self.orders[e.kind.tag.rawValue])
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for member in members {
            let key = canonical.bytes[member.key]
            let known = key.withUnsafeBytes { CanonicalKey.named(UnsafeRawBufferPointer(rebasing: $0[1..<($0.count - 1)])) }
            if known == .seq && !style.writesSeq { continue }
            if !first { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
            first = false
            bytes.append(contentsOf: key)
            bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            if known == .t {
                writeTime(e.t, style)
            } else {
                appendSpaced(member.value)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The top-level members of ``canonical``'s line, ranked by `order`
    /// (keys not in it keep their canonical order after those that are).
    private mutating func splitMembers(_ order: [CanonicalKey]) {
        members.removeAll(keepingCapacity: true)
        let line = canonical.bytes
        var i = 1  // after `{`
        let end = line.count - 1  // the closing `}`
        while i < end {
            let keyStart = i
            i = Self.endOfString(line, from: i)
            let keyRange = keyStart..<i
            i += 1  // `:`
            let valueStart = i
            var depth = 0, inString = false, escaped = false
            while i < end {
                let b = line[i]
                if inString {
                    if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                } else if b == UInt8(ascii: "\"") {
                    inString = true
                } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    depth += 1
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    depth -= 1
                } else if b == UInt8(ascii: ","), depth == 0 {
                    break
                }
                i += 1
            }
            let key = line[keyRange].withUnsafeBytes { CanonicalKey.named(UnsafeRawBufferPointer(rebasing: $0[1..<($0.count - 1)])) }
            let rank = key.flatMap { order.firstIndex(of: $0) } ?? (order.count + members.count)
            members.append((keyRange, valueStart..<i, rank))
            i += 1  // `,`
        }
        members.sort { $0.rank < $1.rank }
    }

    /// The index just after the string literal starting at `start`.
    private static func endOfString(_ line: [UInt8], from start: Int) -> Int {
        var i = start + 1
        while line[i] != UInt8(ascii: "\"") {
            i += line[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        return i + 1
    }

    /// Copies canonical value bytes with a space after each `:` and `,` outside strings.
    private mutating func appendSpaced(_ range: Range<Int>) {
        var inString = false, escaped = false
        for i in range {
            let b = canonical.bytes[i]
            bytes.append(b)
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: ":") || b == UInt8(ascii: ",") {
                bytes.append(UInt8(ascii: " "))
            }
        }
    }

    /// `"2026-11-20T12:00:05.12034+02:00"`: the local time, the style's
    /// fraction digits, the offset.
    private mutating func writeTime(_ t: Timestamp, _ style: ProducerLineStyle) {
        bytes.append(UInt8(ascii: "\""))
        let local = Timestamp(milliseconds: t.milliseconds + Int64(style.offsetMinutes) * 60_000)
        canonical.timestamps.append(local, to: &bytes)
        bytes.removeLast()  // `Z`
        var digits: [UInt8] = []
        var rest = style.subMilliseconds
        for _ in 3..<style.fractionDigits {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        bytes.append(contentsOf: digits.reversed())
        let offset = abs(style.offsetMinutes)
        bytes.append(style.offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let (hours, minutes) = (offset / 60, offset % 60)
        bytes.append(contentsOf: [UInt8(ascii: "0") + UInt8(hours / 10), UInt8(ascii: "0") + UInt8(hours % 10), UInt8(ascii: ":"),
                                  UInt8(ascii: "0") + UInt8(minutes / 10), UInt8(ascii: "0") + UInt8(minutes % 10)])
        bytes.append(UInt8(ascii: "\""))
    }

    /// ``keyOrder(_:)`` of every kind, by ``KindTag``.
    static let orders = KindTag.allCases.map(keyOrder)

    /// The key order for a kind: one of three arrangements of the common
    /// keys around the kind's own fields (from its row of the table), so
    /// that no line has its keys sorted.
    static func keyOrder(_ tag: KindTag) -> [CanonicalKey] {
        let own = tag.spec.fields.map(\.key)
        switch tag.rawValue % 3 {
        case 0: return [.type, .session, .seq, .t] + own + [.scene, .cause, .meta]
        case 1: return [.t, .session, .type] + own + [.seq, .scene, .meta, .cause]
        default: return [.t, .seq, .type, .session, .scene] + own.reversed() + [.cause, .meta]
        }
    }
}
