import NavLogCore

extension SessionStream {
    /// Calls `body` with every event of an NDJSON input, in file order, with
    /// its seq assigned per session (docs/events.md), and `endsSession: true`
    /// on its session's last line (``SessionEnds``): after that call the
    /// session has no more events, so its state can go. Memory follows the
    /// sessions under way, not the sessions seen. Each rejected line is
    /// noted; a file with rejected lines ends the read after it
    /// (``SessionStreamError/rejectedLines(path:count:)``), and a session
    /// whose last line is rejected gets no `endsSession`.
    func forEachNDJSONEvent(_ path: String, _ body: (Event, _ endsSession: Bool) -> Void) throws(SessionStreamError) {
        let ends = try SessionEnds(path: path)
        let reader: NDJSONLineReader
        do { reader = try NDJSONLineReader(path: ends.readPath) } catch { throw .ndjson(ends.named(error)) }
        var parser = EventLineParser()
        var lastSeq: [SessionID: Int] = [:]
        var rejected = 0
        var nextEnd = try ends.next()
        let lines = ends.lines
        func reject(_ line: Int, _ reason: EventParseError) {
            rejected += 1
            onNote(.rejected(RejectedLine(file: path, line: line, reason: reason), ordinal: rejected))
        }
        do throws(NDJSONFailure<SessionStreamError>) {
            try reader.forEachLine { (line) throws(SessionStreamError) in
                // Lines written after the first read are not read.
                guard line.number <= lines, !line.isBlank else { return }
                let isEnd = line.number == nextEnd
                if isEnd { nextEnd = try ends.next() }
                if let length = line.overLimitBytes {
                    return reject(line.number, .lineTooLong(bytes: length, limit: EventParser.maxLineBytes))
                }
                do throws(EventParseError) {
                    var event = try parser.parse(line.bytes)
                    let key = SessionID(event.session)
                    do throws(SeqRefusal) {
                        event.seq = try Sequencer.seq(for: event.seq, after: lastSeq[key] ?? 0)
                    } catch {
                        throw error.parseError
                    }
                    lastSeq[key] = isEnd ? nil : event.seq
                    body(event, isEnd)
                } catch {
                    reject(line.number, error)
                }
            }
        } catch {
            switch error {
            case .read(let error): throw .ndjson(ends.named(error))
            case .body(let error): throw error
            }
        }
        if rejected > 0 { throw .rejectedLines(path: path, count: rejected) }
    }
}
