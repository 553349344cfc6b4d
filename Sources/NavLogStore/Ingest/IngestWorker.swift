#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// One thread of an ingest: owns a share of the sessions, and for each of
/// their lines, in input order, parses the event, numbers it (contract §5:
/// an absent seq is the last accepted one + 1, a seq must increase) and
/// appends it to the session's log — the line as read when it is already
/// canonical, and then, for most lines, without building the event at all
/// (a ``CanonicalLineSummary`` folded into the log's state). Keeps at most
/// `maxOpenWriters` logs open (``OpenLogs``). Its results are read after
/// `join()`.
final class IngestWorker: @unchecked Sendable {
    /// A session this thread owns.
    private struct Route {
        /// The id's bytes, as the reading thread found them.
        var key: [UInt8]
        /// Its log, once its first event was parsed.
        var placement: LogLocator.Placement?
        /// Whether an event of it was stored in this run.
        var storedAny = false
    }

    private let index: Int
    private let files: [String]
    private let locator: LogLocator
    private let logs: OpenLogs
    /// By session number; the sessions of other threads stay empty.
    @exclusivity(unchecked) private var routes: [Route] = []
    @exclusivity(unchecked) private var parser = EventLineParser(checkingCanonicalForm: true)
    @exclusivity(unchecked) private var canonical = CanonicalWriter(capacity: 1024)
    /// The first failure to write; the thread then only finishes shares.
    @exclusivity(unchecked) private(set) var failure: LogError?
    /// Events this thread stored, over all chunks (read after `join()`).
    @exclusivity(unchecked) private(set) var storedTotal = 0
    /// Sessions of this thread that got events, and of those, the ones
    /// whose log is new (read after `join()`).
    @exclusivity(unchecked) private(set) var sessionsStored = 0
    @exclusivity(unchecked) private(set) var newLogsStored = 0

    /// Lines this long may grow over the limit once canonical (integer ids
    /// become strings, seq is filled in): they are checked before they are
    /// appended, so the writer never refuses an event numbered already.
    static let checkCanonicalAbove = EventParser.maxLineBytes * 3 / 4

    /// The worker that handles share `index` of each chunk.
    init(index: Int, files: [String], locator: LogLocator, maxOpenWriters: Int, writerOptions: LogWriterOptions,
         preambleSyncer: PreambleSyncer) {
        self.index = index
        self.files = files
        self.locator = locator
        self.logs = OpenLogs(limit: maxOpenWriters, options: writerOptions, preambleSyncer: preambleSyncer)
    }

    /// Handles chunks until the queue is closed, then closes every log (the
    /// ingest makes them durable together), even after a failure: what was
    /// stored stays stored.
    func run(_ queue: BoundedQueue<IngestChunk>) {
        // Made on this thread, so that what it writes for every line lies
        // in this thread's own memory, away from the other threads'.
        parser = EventLineParser(checkingCanonicalForm: true)
        canonical = CanonicalWriter(capacity: 1024)
        while let chunk = queue.pop() {
            if failure == nil {
                do throws(LogError) { try handle(chunk.shares[index], file: chunk.file) } catch { failure = error }
            }
            if failure != nil { chunk.shares[index].failed = true }
            chunk.finishShare(index)
        }
        if let error = logs.closeAll(), failure == nil { failure = error }
    }

    private func handle(_ share: IngestChunk.Share, file: Int) throws(LogError) {
        for (route, key) in share.newRoutes {
            if routes.count <= route { routes += repeatElement(Route(key: []), count: route + 1 - routes.count) }
            routes[route] = Route(key: key)
        }
        var stored = 0
        defer { storedTotal += stored }
        for line in share.lines {
            let text = line.bytes
            if let reason = try store(text, line) {
                share.rejections.append(StoreIngester.Rejection(file: files[file], line: line.number,
                                                                refusal: reason, bytes: [UInt8](text)))
            } else {
                stored += 1
            }
        }
    }

    /// Stores one line of session `route`; returns why it was refused, or `nil`.
    @inline(__always)
    private func store(_ text: UnsafeRawBufferPointer, _ line: IngestChunk.Line) throws(LogError) -> Refusal? {
        let number = Int(line.route)
        // A canonical line with its seq, not near the length limit, is
        // stored as it is and folded without an event.
        let summarizable = text.count <= Self.checkCanonicalAbove
        if summarizable, let summary = parser.summarize(text) {
            guard line.skimmedSession(at: summary.session) || isRoute(number, text[summary.session]) else {
                return .sessionSkimDisagrees(skimmed: String(decoding: routes[number].key, as: UTF8.self),
                                             parsed: String(decoding: UnsafeRawBufferPointer(rebasing: text[summary.session]), as: UTF8.self))
            }
            return try store(summary, of: text, route: number)
        }
        // A line the summary did not take, the fast path would not read either.
        return try storeEvent(text, route: number, tryingFastPath: !summarizable)
    }

    /// Whether `session` are exactly the bytes of session `route`.
    private func isRoute(_ number: Int, _ session: Slice<UnsafeRawBufferPointer>) -> Bool {
        routes[number].key.withUnsafeBytes { $0.elementsEqual(session) }
    }

    /// Stores a canonical line that has a summary, of session `route` (the
    /// caller checked): as ``storeEvent(_:route:tryingFastPath:)`` stores it, without its event.
    @inline(__always)
    private func store(_ summary: CanonicalLineSummary, of text: UnsafeRawBufferPointer,
                       route number: Int) throws(LogError) -> Refusal? {
        let session = UnsafeRawBufferPointer(rebasing: text[summary.session])
        if routes[number].placement == nil {
            routes[number].placement = try locator.place(String(decoding: session, as: UTF8.self))
        }
        let lastSeq = routes[number].placement!.lastSeq
        if let refusal = Self.check(summary.seq, after: lastSeq) { return refusal }
        let writer = try logs.writer(for: number, path: routes[number].placement!.path)
        // The log went on without us (see storeEvent).
        if writer.lastSeq != lastSeq, let refusal = Self.check(summary.seq, after: writer.lastSeq) { return refusal }
        do {
            try writer.append(canonicalLine: text, summary: summary, parser: &parser)
        } catch {
            guard case .rejected(let why) = error.kind else { throw error }
            return why
        }
        stored(summary.seq, route: number)
        if summary.endsSession { logs.sessionEnded(number) }
        return nil
    }

    /// Stores one line of session `route` through its event (out of line:
    /// the summary's path is the common one).
    @inline(never)
    private func storeEvent(_ text: UnsafeRawBufferPointer, route number: Int,
                            tryingFastPath: Bool) throws(LogError) -> Refusal? {
        var event: Event
        do { event = try parser.parse(text, tryingFastPath: tryingFastPath) } catch { return .line(error) }
        // A line already canonical with its own seq is stored as it is.
        let keepsLine = parser.lastLineIsCanonical && event.seq != 0
        guard routes[number].key.withUnsafeBytes({ SessionID.same(event.session, utf8: $0) }) else {
            // The reading thread's skim disagrees with the parser: refused
            // rather than stored in another session's log.
            return .sessionSkimDisagrees(skimmed: String(decoding: routes[number].key, as: UTF8.self), parsed: event.session)
        }
        if routes[number].placement == nil { routes[number].placement = try locator.place(event.session) }
        let lastSeq = routes[number].placement!.lastSeq
        let numbered = event.seq == 0
        if let refusal = Self.number(&event, numbered: numbered, after: lastSeq) { return refusal }
        if text.count > Self.checkCanonicalAbove {
            canonical.reset()
            canonical.write(event)
            if canonical.bytes.count > EventParser.maxLineBytes {
                return .lineTooLong(bytes: canonical.bytes.count)
            }
        }
        let writer = try logs.writer(for: number, path: routes[number].placement!.path)
        // The log went on without us when another process appended to it
        // while this thread had it closed (or before it first opened it):
        // its last seq is then the previous accepted one (contract §5).
        if writer.lastSeq != lastSeq, let refusal = Self.number(&event, numbered: numbered, after: writer.lastSeq) {
            return refusal
        }
        do {
            if keepsLine {
                try writer.append(event, canonicalLine: text)
            } else {
                try writer.append(event)
            }
        } catch {
            guard case .rejected(let why) = error.kind else { throw error }
            return why
        }
        stored(event.seq, route: number)
        if event.kind == .sessionEnd { logs.sessionEnded(number) }
        return nil
    }

    /// Counts in an event, numbered `seq`, stored for session `route`.
    @inline(__always)
    private func stored(_ seq: Int, route number: Int) {
        routes[number].placement!.lastSeq = seq
        if !routes[number].storedAny {
            routes[number].storedAny = true
            sessionsStored += 1
            if routes[number].placement!.isNew { newLogsStored += 1 }
        }
    }

    /// Numbers `event` after `last` by the one rule (``Sequencer/seq(for:after:)``),
    /// per exact session bytes: an absent seq (`numbered`) becomes `last` + 1,
    /// a given one must be above `last`. Returns why it is refused, or `nil`.
    @inline(__always)
    private static func number(_ event: inout Event, numbered: Bool, after last: Int) -> Refusal? {
        do throws(SeqRefusal) { event.seq = try Sequencer.seq(for: numbered ? 0 : event.seq, after: last) } catch {
            return .seq(error)
        }
        return nil
    }

    /// Why a given `seq` is refused after `last` (``Sequencer/check(_:after:)``), or `nil`.
    @inline(__always)
    private static func check(_ seq: Int, after last: Int) -> Refusal? {
        do throws(SeqRefusal) { try Sequencer.check(seq, after: last) } catch { return .seq(error) }
        return nil
    }
}
