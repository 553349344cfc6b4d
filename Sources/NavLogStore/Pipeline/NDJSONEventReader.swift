import NavLogCore

/// Reads events from NDJSON input: every non-blank line is parsed, given its
/// `seq` (per session, docs/events.md) and handed out as an event, or as a
/// ``RejectedLine`` with its line number and reason. Nothing is dropped
/// silently; blank lines are skipped.
public struct NDJSONEventReader {
    /// The input's name as the user gave it.
    public let path: String
    private let lines: NDJSONLineReader

    /// Opens `path` (`-` for standard input).
    public init(path: String) throws(NDJSONReadError) {
        self.path = path
        self.lines = try NDJSONLineReader(path: path)
    }

    /// Calls `body` with each accepted event or rejected line, in input order.
    /// `sequencer` carries seq assignment across calls and inputs.
    public func forEach<E: Error>(
        sequencer: inout Sequencer,
        _ body: (Result<Event, RejectedLine>) throws(E) -> Void
    ) throws(NDJSONFailure<E>) {
        var parser = EventLineParser()
        let path = self.path
        try lines.forEachLine { (line) throws(E) in
            if line.isBlank { return }
            let result: Result<Event, RejectedLine>
            if let length = line.overLimitBytes {
                result = .failure(RejectedLine(file: path, line: line.number,
                                               reason: .lineTooLong(bytes: length, limit: EventParser.maxLineBytes)))
            } else {
                do throws(EventParseError) {
                    var event = try parser.parse(line.bytes)
                    try sequencer.accept(&event)
                    result = .success(event)
                } catch {
                    result = .failure(RejectedLine(file: path, line: line.number, reason: error))
                }
            }
            try body(result)
        }
    }
}
