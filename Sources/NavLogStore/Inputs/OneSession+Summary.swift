import NavLogCore

/// What `navlog info` says of a session, and the other things a command
/// asks of the storage as a whole: a copy as a log, its blocks' checks.
extension OneSession {
    /// The facts of the session: a log's (from its index alone) or a stored session's.
    public func summary() throws(OneSessionError) -> SessionFacts {
        switch storage {
        case .log(let reader, let file):
            return .log(LogSummary(file: file, reader: reader), damage: reader.damage.flatMap {
                $0.isTornTail ? nil : "\(file): damaged at byte \($0.offset); run 'navlog verify'"
            })
        case .stored(let stored):
            let figures: StoredSession.Summary
            do { figures = try stored.summary() } catch { throw .segments(error) }
            return .stored(StoredSessionSummary(store: stored.store, session: stored.id, figures: figures))
        case .ndjson(let path, _):
            throw .trouble("\(InputName.shown(path)): not a .navlog log or a store")
        }
    }

    /// Appends every event of the session to `writer` (not closed): a
    /// stored session as the store writes it, anything else as
    /// ``forEachEvent(_:_:)`` reads it.
    public func write(to writer: LogWriter) throws(OneSessionError) {
        if case .stored(let stored) = storage {
            do { return try stored.write(to: writer) } catch { throw .segments(error) }
        }
        var failure: FileError?
        try forEachEvent(EventFilter()) { event in
            guard failure == nil else { return }
            do throws(FileError) { _ = try writer.append(event) } catch { failure = error }
        }
        if let failure { throw .log(failure) }
    }

    /// Checks the checksums of every data block of a log (the whole file
    /// is read, not decompressed); nothing for other storage.
    public func checkBlocks() throws(OneSessionError) {
        guard case .log(let reader, _) = storage else { return }
        do { _ = try reader.checkBlocks() } catch { throw .log(error) }
    }

    /// For a log: its file, and how many of its blocks were not read so
    /// far (so not checked for damage) of how many.
    public var unreadBlocks: (file: String, notRead: Int, of: Int)? {
        guard case .log(let reader, let file) = storage else { return nil }
        return (file, reader.blocksNotRead, reader.blocks.count)
    }
}

/// The facts `navlog info` prints of a session: a log's or a stored session's.
public enum SessionFacts: Sendable {
    /// A log, and the line for damage at its end (not a torn tail) if there is some.
    case log(LogSummary, damage: String?)
    case stored(StoredSessionSummary)

    /// `key: value` lines.
    public var lines: [(String, String)] {
        switch self {
        case .log(let summary, _): summary.lines
        case .stored(let summary): summary.lines
        }
    }

    /// One JSON object (schemas/info.schema.json).
    public var jsonValue: JSONValue {
        switch self {
        case .log(let summary, _): summary.jsonValue
        case .stored(let summary): summary.jsonValue
        }
    }

    /// Damage to report after the facts (exit 1): a log's, not a torn tail.
    public var damage: String? {
        if case .log(_, let damage) = self { return damage }
        return nil
    }
}
