import NavLogCore

/// Reads canonical lines of a session the way the store needs them: the
/// seq and `t`, and the fold into a state (the fast path of
/// ``EventLineParser`` where it reads the line, the full parser otherwise).
struct SessionFold {
    private var parser = EventLineParser()

    /// What a line says, without its fold.
    struct LineFacts {
        var seq: Int
        var t: Int64
        var session: String
    }

    /// A line's seq, `t` and session id bytes, read in one pass: the id
    /// is where it lies in the line (the fast path), or decoded by the
    /// full parser; no `String` is made on the fast path.
    struct LineKey {
        enum ID {
            case inLine(Range<Int>)
            case decoded([UInt8])
        }
        var seq: Int
        var t: Int64
        var id: ID

        /// The id's bytes, valid while `line` is.
        func id<R>(in line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch id {
            case .inLine(let range): body(UnsafeRawBufferPointer(rebasing: line[range]))
            case .decoded(let bytes): bytes.withUnsafeBytes(body)
            }
        }
    }

    /// The line's seq, `t` and session id; `nil` when it is not a valid event with a seq.
    mutating func key(_ line: UnsafeRawBufferPointer) -> LineKey? {
        if let summary = parser.key(line) {
            return LineKey(seq: summary.seq, t: summary.t.milliseconds, id: .inLine(summary.session))
        }
        guard let event = try? parser.parse(line), event.seq > 0 else { return nil }
        return LineKey(seq: event.seq, t: event.t.milliseconds, id: .decoded(Array(event.session.utf8)))
    }

    /// The seq of a stored (canonical) line, cheaply: in canonical key order
    /// the top-level `"seq":N` is the member just before `"session"` (no
    /// key sorts between them but unknown ones), so it is read backwards from
    /// the session's skimmed place; any other line is parsed (``key(_:)``).
    mutating func seq(_ line: UnsafeRawBufferPointer) -> Int? {
        if let session = SessionSkim.sessionBytes(in: line), session.lowerBound >= 20 {
            // …,"seq":N,"session":"<id>
            var i = session.lowerBound - 13   // the last digit of N, if it is there
            var n = 0, scale = 1
            while i >= 0, line[i] >= 0x30, line[i] <= 0x39, scale <= 100_000_000_000_000 {
                n += Int(line[i] - 0x30) * scale
                scale *= 10
                i -= 1
            }
            if scale > 1, i >= 6, line[i] == UInt8(ascii: ":"), line[i - 1] == 0x22, line[i - 2] == UInt8(ascii: "q"),
               line[i - 3] == UInt8(ascii: "e"), line[i - 4] == UInt8(ascii: "s"), line[i - 5] == 0x22,
               line[i - 6] == UInt8(ascii: ",") || line[i - 6] == UInt8(ascii: "{"),
               line[session.lowerBound - 12] == UInt8(ascii: ","), line[session.lowerBound - 11] == 0x22,
               line[i + 1] != 0x30, n > 0 {
                return n
            }
        }
        return key(line)?.seq
    }

    /// The line's seq, `t` and session; `nil` when it is not a valid event with a seq.
    mutating func facts(_ line: UnsafeRawBufferPointer) -> LineFacts? {
        guard let key = key(line) else { return nil }
        return LineFacts(seq: key.seq, t: key.t, session: key.id(in: line) { String(decoding: $0, as: UTF8.self) })
    }

    /// Folds the line into `state`; returns its seq, or `nil` when the line is not an event with a seq.
    @discardableResult
    mutating func fold(_ line: UnsafeRawBufferPointer, into state: inout NavigationProjector) -> Int? {
        if let summary = parser.summarize(line) {
            parser.fold(summary, line: line, into: &state)
            return summary.seq
        }
        guard let event = try? parser.parse(line), event.seq > 0 else { return nil }
        _ = state.apply(event)
        return event.seq
    }
}
