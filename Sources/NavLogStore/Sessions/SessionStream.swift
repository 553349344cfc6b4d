#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Logs, stores and NDJSON files read as one stream of sessions: what
/// `navlog funnel`, `paths` and `export` read. Each source is read whole by
/// one thread, several sources at once (``tally(_:)``,
/// ``writeRows(redactor:to:_:)``), except that a tally of one NDJSON file
/// reads it on every worker, each a share of its sessions; results come out
/// as if the sources were read one by one, in order.
///
/// ```swift
/// let stream = try SessionStream(paths: ["store/", "more.ndjson"]) { note in print(note) }
/// let paths = try stream.tally { ScreenPathTally(mode: .transitions) }
/// ```
///
/// A log's torn tail is reported as a ``Note`` and its prefix read; other
/// damage ends the read (``SessionStreamError/damaged(path:_:)``). Each
/// rejected NDJSON line is reported as a ``Note``, and a file with rejected
/// lines ends the read after it (``SessionStreamError/rejectedLines(path:count:)``).
public struct SessionStream: Sendable {
    /// What the stream reports while reading, without stopping.
    public enum Note: Sendable {
        /// A log ends in a torn tail (a write cut short): its events before it are read.
        case tornTail(path: String, LogDamage)
        /// A rejected NDJSON line, the `ordinal`-th (from 1) of its file.
        case rejected(RejectedLine, ordinal: Int)
    }

    /// The sources, in order.
    public let sources: [SessionSource]
    /// Threads reading sources at once.
    public let workers: Int
    /// Called with each ``Note``, from the reading threads (one at a time per source).
    let onNote: @Sendable (Note) -> Void

    public init(sources: [SessionSource], workers: Int = SessionStream.defaultWorkers,
                onNote: @escaping @Sendable (Note) -> Void = { _ in }) {
        self.sources = sources
        self.workers = max(1, workers)
        self.onNote = onNote
    }

    /// The sources `paths` name (``SessionSource/resolve(_:)``).
    public init(paths: [String], workers: Int = SessionStream.defaultWorkers,
                onNote: @escaping @Sendable (Note) -> Void = { _ in }) throws(SessionStreamError) {
        self.init(sources: try SessionSource.resolve(paths), workers: workers, onNote: onNote)
    }

    /// Two workers on a machine with two or more cores, else one.
    public static var defaultWorkers: Int { max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    // MARK: One source

    /// Calls `body` with every event of `source`, in file order (a log's
    /// events in seq order, NDJSON's with their seq assigned per session).
    /// A segment store part's events come session after session, in
    /// session-key order. `scratch`, when given, lends a log's cursor its decoder and buffers.
    public func forEachEvent(in source: SessionSource, scratch: LogScanScratch? = nil,
                             _ body: (Event) -> Void) throws(SessionStreamError) {
        switch source {
        case .log(let path):
            // Logs are read start to end, thousands in a row: a small one in one read.
            let reader = try openLog(path, preloadingUpTo: scratch == nil ? 0 : 1 << 20)
            let cursor = scratch.map { reader.cursor(sharing: $0) } ?? reader.cursor()
            do {
                try cursor.forEach(body)
            } catch let error as FileError {
                throw .log(error)
            } catch {
                // forEach throws what its body throws (nothing here) or a FileError.
                preconditionFailure("LogCursor.forEach threw \(error)")
            }
        case .ndjson(let path):
            try forEachNDJSONEvent(path) { event, _ in body(event) }
        case .segments(let part):
            try SegmentPartScan(part).forEachEvent { event, _ in body(event) }
        }
    }

    /// Calls `body` with each session of `source`, complete, after its last
    /// event. A log is one session, followed in O(its occurrences) memory;
    /// an NDJSON file's sessions are followed side by side, each handed out
    /// at its last line (``forEachNDJSONEvent(_:_:)``), so memory follows the
    /// sessions under way; a segment store part's
    /// sessions one after another, each after its last event. `keepsMarks: false` records
    /// screen views only; `readsSessionStarts: false` may leave an NDJSON
    /// `session.start`'s `app` and `device` out; `names` finds screen names built before.
    package func forEachSession(in source: SessionSource, keepsMarks: Bool, readsSessionStarts: Bool = true,
                               scratch: LogScanScratch? = nil,
                               names: ScreenNameCache? = nil,
                               _ body: (SessionOccurrences) -> Void) throws(SessionStreamError) {
        if case .ndjson(let path) = source {
            let read = NDJSONShareRead.whole(path, onNote: onNote)
            try forEachNDJSONSession(path, read, keepsMarks: keepsMarks, readsSessionStarts: readsSessionStarts, names: names, body)
            return try read.endWhole()
        }
        if case .segments(let part) = source, let projection = part.projection, let blocks = projection.blocks {
            return projection.forEachSession(of: part, blocks: blocks, keepsMarks: keepsMarks, body)
        }
        var recorder: SessionOccurrences?
        try forEachEventBySession(in: source, scratch: scratch, keepingRestoredJSON: false) { event, startsSession in
            if startsSession {
                recorder.map(body)
                recorder = SessionOccurrences(session: event.session, keepsMarks: keepsMarks)
            }
            recorder!.add(event, names: names)
        }
        recorder.map(body)
    }

    /// ``forEachEvent(in:scratch:_:)`` of a log or a store part, whose
    /// sessions come one after another (a log holds one), each event with
    /// whether it starts its session. Without `keepingRestoredJSON`, a
    /// stored `state.restore` event may have its scene alone (for a reader that only follows it).
    func forEachEventBySession(in source: SessionSource, scratch: LogScanScratch?, keepingRestoredJSON: Bool = true,
                               _ body: (Event, _ startsSession: Bool) -> Void) throws(SessionStreamError) {
        if case .segments(let part) = source {
            return try SegmentPartScan(part).forEachEvent(keepingRestoredJSON: keepingRestoredJSON, body)
        }
        var first = true
        try forEachEvent(in: source, scratch: scratch) { event in
            body(event, first)
            first = false
        }
    }

    /// Opens a log: a torn tail is noted (its prefix is read), other damage thrown.
    private func openLog(_ path: String, preloadingUpTo limit: Int) throws(SessionStreamError) -> LogReader {
        let reader: LogReader
        do { reader = try LogReader(path: path, preloadingUpTo: limit) } catch { throw .log(error) }
        if let damage = reader.damage {
            guard damage.isTornTail else { throw .damaged(path: path, damage) }
            onNote(.tornTail(path: path, damage))
        }
        return reader
    }
}
