import NavLogCore

/// A session's events as canonical NDJSON lines (`navlog cat`), once or
/// followed as a writer commits more.
extension OneSession {
    /// Hands `body` each event of the session that passes `filter`, in
    /// seq order: a log from the block holding `fromSeq` on, a stored
    /// session through the store's index, NDJSON read whole.
    public func forEachEvent(_ filter: EventFilter, _ body: (Event) -> Void) throws(OneSessionError) {
        switch storage {
        case .log(let reader, _):
            do {
                let cursor = reader.cursor(fromSeq: filter.fromSeq ?? 1, toSeq: filter.toSeq ?? .max)
                while let event = try cursor.next() {
                    if filter.includes(type: event.type) { body(event) }
                }
            } catch { throw .log(error) }
        case .stored(let stored):
            var parser = EventLineParser()
            do {
                try stored.forEachLine { line throws(SegmentStoreError) in
                    guard let event = try? parser.parse(line) else {
                        throw .invalidEvent(session: stored.id, seq: 0, reason: "a stored line does not parse as an event")
                    }
                    if filter.includes(event) { body(event) }
                }
            } catch { throw .segments(error) }
        case .ndjson:
            for event in try events().events where filter.includes(event) { body(event) }
        }
    }

    /// Hands `body` the session's lines that pass `filter`, each ending in
    /// `\n`, in chunks: without a filter a log's lines are its stored bytes
    /// (what `lz4 -dc` prints) and a stored session's its stored lines;
    /// with one, the events that pass (``forEachEvent(_:_:)``) are written
    /// again. Returns how many events passed (without a filter, 0). Damage
    /// at a log's end is ``finish()``'s to say.
    public func lines(_ filter: EventFilter, _ body: (UnsafeRawBufferPointer) -> Void) throws(OneSessionError) -> Int {
        var chunks = LineChunks()
        if filter.isEmpty {
            switch storage {
            case .log(let reader, _):
                do { try reader.forEachContent(body) } catch { throw .log(error) }
                return 0
            case .stored(let stored):
                // Every line read before a failure is handed out.
                defer { chunks.flush(body) }
                do { try stored.forEachLine { line throws(SegmentStoreError) in chunks.add(line: line, body) } } catch {
                    throw .segments(error)
                }
                return 0
            case .ndjson:
                break
            }
        }
        var passed = 0
        try forEachEvent(filter) { event in
            passed += 1
            chunks.add(event, body)
        }
        chunks.flush(body)
        return passed
    }

    /// After its lines: notes a log's torn tail (the lines before it were
    /// handed out) and throws other damage at its end.
    public func finish() throws(OneSessionError) {
        guard case .log(let reader, let file) = storage, let damage = reader.damage else { return }
        let message = "\(file): \(damage)"
        guard damage.isTornTail else { throw .damaged(message) }
        messages.notice(message)
    }

    /// A follower of the session from the first event that passes `filter`:
    /// each ``Follower/next(_:)`` hands out the lines committed since.
    public func follower(_ filter: EventFilter) throws(OneSessionError) -> Follower {
        switch storage {
        case .log(let reader, let file):
            return Follower(.log(reader, reader.cursor(fromSeq: filter.fromSeq ?? 1, toSeq: filter.toSeq ?? .max), file: file), filter)
        case .stored(let stored):
            return Follower(.stored(StoredSessionFollower(stored, afterSeq: (filter.fromSeq ?? 1) - 1)), filter)
        case .ndjson(let path, _):
            throw .trouble("\(InputName.shown(path)): NDJSON is not followed; give a log or a store's session")
        }
    }

    /// Follows a log (a writer appending to it) or a stored session (a
    /// writer committing to its store).
    public final class Follower {
        /// How long to wait between two calls that found nothing.
        public static let pollMicroseconds = StoredSessionFollower.pollMicroseconds

        enum Source {
            case log(LogReader, LogCursor, file: String)
            case stored(StoredSessionFollower)
        }

        let source: Source
        let filter: EventFilter
        private var parser = EventLineParser()
        private var chunks = LineChunks()

        init(_ source: Source, _ filter: EventFilter) {
            self.source = source
            self.filter = filter
        }

        /// Hands `body` the lines committed since the last call that pass
        /// the filter (each ending in `\n`) and returns whether the session
        /// has passed its `toSeq`. What was read is handed out before an
        /// error is thrown; damage (not a torn tail: a writer at work) is thrown.
        public func next(_ body: (UnsafeRawBufferPointer) -> Void) throws(OneSessionError) -> Bool {
            defer { chunks.flush(body) }
            let to = filter.toSeq ?? .max
            switch source {
            case .log(let reader, let cursor, let file):
                do {
                    _ = try reader.refresh()
                    while let event = try cursor.next() {
                        if filter.includes(type: event.type) { chunks.add(event, body) }
                    }
                } catch { throw .log(error) }
                if let damage = reader.damage, !damage.isTornTail { throw .damaged("\(file): \(damage)") }
                return cursor.lastSeq >= to
            case .stored(let follower):
                do {
                    try follower.next { line, seq throws(SegmentStoreError) in
                        guard seq <= to else { return }
                        if !filter.types.isEmpty {
                            guard let event = try? parser.parse(line) else {
                                throw .invalidEvent(session: follower.id, seq: seq, reason: "a stored line does not parse as an event")
                            }
                            guard filter.includes(type: event.type) else { return }
                        }
                        chunks.add(line: line, body)
                    }
                } catch { throw .segments(error) }
                if let damage = follower.damage.first { throw .damaged(damage.description) }
                return follower.lastSeq >= to
            }
        }
    }
}

/// Lines handed out in chunks of about 64 KiB, each line ending in `\n`:
/// events written canonically, or stored lines as they are.
struct LineChunks {
    private var writer = CanonicalWriter(capacity: 1 << 16)

    mutating func add(_ event: Event, _ body: (UnsafeRawBufferPointer) -> Void) {
        writer.write(event)
        end(body)
    }

    mutating func add(line: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        writer.bytes.append(contentsOf: line)
        end(body)
    }

    /// Hands out what is held.
    mutating func flush(_ body: (UnsafeRawBufferPointer) -> Void) {
        writer.bytes.withUnsafeBytes(body)
        writer.reset()
    }

    private mutating func end(_ body: (UnsafeRawBufferPointer) -> Void) {
        writer.bytes.append(0x0A)
        if writer.bytes.count >= 1 << 16 { flush(body) }
    }
}
