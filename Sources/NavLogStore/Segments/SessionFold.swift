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

    /// The line's seq, `t` and session; `nil` when it is not a valid event with a seq.
    mutating func facts(_ line: UnsafeRawBufferPointer) -> LineFacts? {
        if let summary = parser.summarize(line) {
            let session = String(decoding: UnsafeRawBufferPointer(rebasing: line[summary.session]), as: UTF8.self)
            return LineFacts(seq: summary.seq, t: summary.t.milliseconds, session: session)
        }
        guard let event = try? parser.parse(line), event.seq > 0 else { return nil }
        return LineFacts(seq: event.seq, t: event.t.milliseconds, session: event.session)
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
