import NavLogCore

/// A session's events as canonical NDJSON lines (`navlog cat`), once or
/// followed as a writer commits more.
extension OneSession {
    /// Hands `body` the session's lines that pass `filter`, each ending in
    /// `\n`, in chunks: without a filter a log's lines are its stored bytes
    /// (what `lz4 -dc` prints) and a stored session's its stored lines;
    /// with one, the events that pass are written again. Returns how many
    /// events passed (without a filter, 0). Damage at a log's end is
    /// ``finish()``'s to say.
    public func lines(_ filter: EventFilter, _ body: (UnsafeRawBufferPointer) -> Void) throws(OneSessionError) -> Int {
        var writer = CanonicalWriter(capacity: 1 << 16)
        var passed = 0
        func emit(_ event: Event) {
            passed += 1
            writer.write(event)
            writer.bytes.append(0x0A)
            if writer.bytes.count >= 1 << 16 {
                writer.bytes.withUnsafeBytes(body)
                writer.reset()
            }
        }
        switch storage {
        case .log(let reader, _):
            do {
                if filter.isEmpty {
                    try reader.forEachContent(body)
                } else {
                    let cursor = reader.cursor(fromSeq: filter.fromSeq ?? 1, toSeq: filter.toSeq ?? .max)
                    while let event = try cursor.next() {
                        if filter.includes(type: event.type) { emit(event) }
                    }
                    writer.bytes.withUnsafeBytes(body)
                }
            } catch { throw .log(error) }
        case .stored(let stored):
            var parser = EventLineParser()
            var line: [UInt8] = []
            do {
                try stored.forEachLine { bytes throws(SegmentStoreError) in
                    guard !filter.isEmpty else {
                        line.removeAll(keepingCapacity: true)
                        line.append(contentsOf: bytes)
                        line.append(0x0A)
                        line.withUnsafeBytes(body)
                        return
                    }
                    guard let event = try? parser.parse(bytes) else {
                        throw .invalidEvent(session: stored.id, seq: 0, reason: "a stored line does not parse as an event")
                    }
                    if filter.includes(event) { emit(event) }
                }
            } catch { throw .segments(error) }
            writer.bytes.withUnsafeBytes(body)
        case .ndjson:
            for event in try events().events where filter.includes(event) { emit(event) }
            writer.bytes.withUnsafeBytes(body)
        }
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
        private var writer = CanonicalWriter(capacity: 1 << 16)

        init(_ source: Source, _ filter: EventFilter) {
            self.source = source
            self.filter = filter
        }

        /// Hands `body` the lines committed since the last call that pass
        /// the filter (each ending in `\n`) and returns whether the session
        /// has passed its `toSeq`. What was read is handed out before an
        /// error is thrown; damage (not a torn tail: a writer at work) is thrown.
        public func next(_ body: (UnsafeRawBufferPointer) -> Void) throws(OneSessionError) -> Bool {
            defer {
                writer.bytes.withUnsafeBytes(body)
                writer.reset()
            }
            let to = filter.toSeq ?? .max
            switch source {
            case .log(let reader, let cursor, let file):
                do {
                    _ = try reader.refresh()
                    while let event = try cursor.next() {
                        if filter.includes(type: event.type) { emit(event: event, body) }
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
                        writer.bytes.append(contentsOf: line)
                        writer.bytes.append(0x0A)
                        flushIfFull(body)
                    }
                } catch { throw .segments(error) }
                if let damage = follower.damage.first { throw .damaged(damage.description) }
                return follower.lastSeq >= to
            }
        }

        private func emit(event: Event, _ body: (UnsafeRawBufferPointer) -> Void) {
            writer.write(event)
            writer.bytes.append(0x0A)
            flushIfFull(body)
        }

        private func flushIfFull(_ body: (UnsafeRawBufferPointer) -> Void) {
            if writer.bytes.count >= 1 << 16 {
                writer.bytes.withUnsafeBytes(body)
                writer.reset()
            }
        }
    }
}
