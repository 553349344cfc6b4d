import Foundation
import NavLogCore
import NavLogStore

/// Records an app's navigation into a `.navlog` log, from any thread,
/// without the caller ever waiting on the disk.
///
/// ```swift
/// let recorder = try NavigationRecorder(path: logPath, session: "s-1",
///                                       app: ["version": .string("2.3")])
/// recorder.tabChanged(to: "home")
/// recorder.stackChanged("home", to: [Route.recipe("apple-pie")])
/// try recorder.flush()   // durable when it returns
/// try recorder.close()
/// ```
///
/// Each call stamps the event (seq, time) and appends it to a bounded
/// buffer under a lock; a background thread hands the buffer to a
/// ``LogWriter``. `seq` is assigned at that moment, so events from one
/// thread are recorded in the order of its calls. When the buffer is full,
/// ``RecorderOptions/whenFull`` applies: the caller waits, or the event is
/// dropped, counted, and the count recorded as a `recorder.dropped` event.
/// An event the writer refuses (a line over 1 MiB) is replaced by a
/// `recorder.rejected` event with its `rejectedSeq` and `reason`. A write
/// or sync failure stops recording: ``flush()`` and ``close()`` throw it.
public final class NavigationRecorder: Sendable {
    /// The session every event belongs to.
    public let session: String
    /// The log file.
    public let path: String
    /// The settings in force.
    public let options: RecorderOptions

    private let lock = RecorderLock()
    private let shared: Shared
    private let writerBox: WriterBox
    /// Ships durable events when ``RecorderOptions/upload`` is set.
    let uploader: Uploader?

    /// Opens (or continues) the log at `path` and records `session.start`
    /// with `app` and `device` metadata (e.g. `app.version`).
    ///
    /// - Throws: ``FileError`` from opening the log (`.locked` when another
    ///   writer has it), or `.rejected` when the log belongs to another session.
    public init(
        path: String, session: String,
        app: [String: JSONValue]? = nil, device: [String: JSONValue]? = nil,
        options: RecorderOptions = RecorderOptions()
    ) throws(FileError) {
        guard !session.isEmpty else { throw FileError(path: path, kind: .rejected(.emptySession)) }
        let writer = try LogWriter(path: path, options: options.writer)
        if let existing = writer.session, existing != session {
            throw FileError(path: path, kind: .rejected(.logOfOtherSession(existing, wanted: session)))
        }
        self.session = session
        self.path = path
        self.options = options
        shared = Shared(session: session, nextSeq: writer.lastSeq + 1, capacity: options.capacity)
        shared.durableSeq = writer.lastSeq
        writerBox = WriterBox(writer: writer)
        uploader = try options.upload.map { upload throws(FileError) in
            try Uploader(logPath: path, session: session, durableSeq: writer.lastSeq, options: upload)
        }
        uploader?.start()
        record(.sessionStart(app: app, device: device))
        let (lock, shared, box, options, session, uploader) = (lock, shared, writerBox, options, session, uploader)
        let thread = Thread {
            Self.writeLoop(lock: lock, shared: shared, writer: box.writer, options: options, session: session,
                           uploader: uploader)
        }
        thread.name = "navlog-recorder"
        thread.start()
    }

    deinit {
        // A recorder released without close(): let its thread finish.
        lock.lock()
        if !shared.closing && !shared.stopped {
            recordDrops(t: Timestamp(milliseconds: Self.wallClockMilliseconds()))
        }
        shared.closing = true
        lock.signalWork()
        lock.unlock()
        uploader?.stopSoon()
    }

    // MARK: Recording

    /// Records one event of any kind and returns its seq, or `nil` when it
    /// was dropped (buffer full under ``RecorderOptions/WhenFull/drop``) or
    /// the recorder is closed or failed.
    ///
    /// `cause` defaults to ``CauseContext/current`` (set inside
    /// ``openedURL(_:scene:meta:_:)``). Every recorded event is projected:
    /// stack events, `state.restore` and `scene.close` also change the paths
    /// that ``stackChanged(_:to:scene:cause:meta:)`` diffs against.
    @discardableResult
    public func record(
        _ kind: EventKind, scene: String? = nil, cause: Int? = nil,
        meta: [String: JSONValue]? = nil, extra: [String: JSONValue] = [:]
    ) -> Int? {
        let cause = cause ?? CauseContext.current
        let t = Timestamp(milliseconds: Self.wallClockMilliseconds())
        lock.lock()
        defer { lock.unlock() }
        guard let seq = reserve(t: t) else { return nil }
        let event = Event(session: session, seq: seq, t: t, scene: scene, kind: kind,
                          cause: cause, meta: meta, extra: extra)
        shared.track(event)
        shared.buffer.append(event)
        return seq
    }

    /// Makes room for one event and returns its seq (lock held), or `nil`
    /// when it is dropped or recording has stopped.
    private func reserve(t: Timestamp) -> Int? {
        while shared.buffer.count >= options.capacity && !shared.stopped && !shared.closing {
            if options.whenFull == .drop {
                shared.dropped += 1
                return nil
            }
            wakeWriter()
            lock.waitForProgress()
        }
        if shared.stopped || shared.closing { return nil }
        recordDrops(t: t)
        wakeWriter()
        return shared.takeSeq()
    }

    /// Records the drops not yet recorded as a `recorder.dropped` event
    /// (lock held). The buffer may exceed `capacity` by this one marker.
    private func recordDrops(t: Timestamp) {
        guard shared.dropped > 0 else { return }
        let seq = shared.takeSeq()
        shared.buffer.append(Event(session: session, seq: seq, t: t, kind: .other(type: "recorder.dropped"),
                                   extra: ["count": .number(String(shared.dropped))]))
        shared.totalDropped += shared.dropped
        shared.dropped = 0
    }

    @inline(__always) private func wakeWriter() {
        if shared.writerWaiting {
            shared.writerWaiting = false
            lock.signalWork()
        }
    }

    /// Records the change of a stack's path (a NavigationPath or array
    /// binding after a change) as the one event that makes it, by
    /// ``PathChange``'s rule, diffed against the path of this stack of this
    /// scene that the events recorded so far project (empty at first). Equal paths record nothing.
    /// Returns the event's seq, or `nil` when nothing was recorded.
    @discardableResult
    public func stackChanged(
        _ stack: String, to newPath: [RouteValue], scene: String? = nil,
        cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        recordPathChange(stack, to: newPath, scene: scene, cause: cause, meta: meta)
    }

    private func recordPathChange(
        _ stack: String, to newPath: [RouteValue], scene: String?, cause: Int?, meta: [String: JSONValue]?
    ) -> Int? {
        let cause = cause ?? CauseContext.current
        let t = Timestamp(milliseconds: Self.wallClockMilliseconds())
        lock.lock()
        defer { lock.unlock() }
        guard let change = PathChange(from: shared.path(of: stack, scene: scene ?? "main"), to: newPath) else { return nil }
        guard let seq = reserve(t: t) else { return nil }
        let event = Event(session: session, seq: seq, t: t, scene: scene, kind: change.kind(stack: stack),
                          cause: cause, meta: meta)
        shared.track(event)
        shared.buffer.append(event)
        return seq
    }

    /// ``stackChanged(_:to:scene:cause:meta:)`` for a path of app values.
    @discardableResult
    public func stackChanged<Path: Sequence>(
        _ stack: String, to newPath: Path, scene: String? = nil,
        cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? where Path.Element: RouteConvertible {
        recordPathChange(stack, to: newPath.map(\.routeValue), scene: scene, cause: cause, meta: meta)
    }

    /// ``stackChanged(_:to:scene:cause:meta:)`` for a heterogeneous path
    /// (the values of a NavigationPath of several types).
    @discardableResult
    public func stackChanged(
        _ stack: String, to newPath: [any RouteConvertible], scene: String? = nil,
        cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        recordPathChange(stack, to: newPath.map(\.routeValue), scene: scene, cause: cause, meta: meta)
    }

    /// Records `url.open`, then runs `body` with ``CauseContext/current``
    /// set to its seq: the events recorded inside carry it as `cause`.
    @discardableResult
    public func openedURL<Result>(
        _ url: String, scene: String? = nil, meta: [String: JSONValue]? = nil,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let seq = record(.urlOpen(url: url), scene: scene, meta: meta)
        return try CauseContext.$current.withValue(seq, operation: body)
    }

    /// ``openedURL(_:scene:meta:_:)`` for a `URL`.
    @discardableResult
    public func openedURL<Result>(
        _ url: URL, scene: String? = nil, meta: [String: JSONValue]? = nil,
        _ body: () throws -> Result
    ) rethrows -> Result {
        try openedURL(url.absoluteString, scene: scene, meta: meta, body)
    }

    /// ``openedURL(_:scene:meta:_:)`` with an async closure.
    @discardableResult
    public func openedURL<Result>(
        _ url: String, scene: String? = nil, meta: [String: JSONValue]? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        let seq = record(.urlOpen(url: url), scene: scene, meta: meta)
        return try await CauseContext.$current.withValue(seq, operation: body)
    }

    // MARK: Durability

    /// Waits until every event recorded before the call is written and
    /// synced: on return they survive a crash. Drops not yet recorded are
    /// recorded (`recorder.dropped`) first. With ``RecorderOptions/upload``
    /// set, the uploader then sends every durable event at once (the call
    /// does not wait for the collector: see ``uploadStatus``).
    ///
    /// - Throws: the ``FileError`` that stopped the writer, or `.closed`.
    public func flush() throws(FileError) {
        try flushToDisk()
        uploader?.sendAll()
    }

    private func flushToDisk() throws(FileError) {
        lock.lock()
        defer { lock.unlock() }
        if let failure = shared.failure { throw failure }
        if shared.closing { throw FileError(path: path, kind: .closed) }
        recordDrops(t: Timestamp(milliseconds: Self.wallClockMilliseconds()))
        let target = shared.nextSeq - 1
        shared.flushTarget = max(shared.flushTarget, target)
        while shared.durableSeq < target {
            if let failure = shared.failure { throw failure }
            shared.writerWaiting = false
            lock.signalWork()
            lock.waitForProgress()
        }
    }

    /// Writes and syncs everything recorded (and the count of drops not yet
    /// recorded), seals the log (footer) and
    /// releases it. Recording calls afterwards record nothing. The uploader
    /// stops (its request in flight is cancelled); what the collector has
    /// not acknowledged is sent by the next recorder on this log.
    ///
    /// - Throws: the ``FileError`` that stopped the writer, if any.
    public func close() throws(FileError) {
        lock.lock()
        if !shared.closing && !shared.stopped {
            recordDrops(t: Timestamp(milliseconds: Self.wallClockMilliseconds()))
        }
        shared.closing = true
        lock.signalWork()
        while !shared.finished { lock.waitForProgress() }
        let failure = shared.failure
        lock.unlock()
        uploader?.stop()
        if let failure { throw failure }
    }

    /// Events dropped so far because the buffer was full (each counted in a
    /// `recorder.dropped` event once there was room).
    public var droppedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return shared.totalDropped + shared.dropped
    }

    /// The failure that stopped the writer, if any.
    public var failure: FileError? {
        lock.lock()
        defer { lock.unlock() }
        return shared.failure
    }

    // MARK: The writer thread

    private static func writeLoop(
        lock: RecorderLock, shared: Shared, writer: LogWriter, options: RecorderOptions, session: String,
        uploader: Uploader?
    ) {
        var batch: [Event] = []
        batch.reserveCapacity(options.capacity + 1)
        var unsyncedSince: Int64?   // monotonic ms of the oldest unsynced write
        lock.lock()
        while true {
            let flushWanted = shared.flushTarget > shared.durableSeq
            if shared.buffer.isEmpty && !flushWanted && !shared.closing {
                var wait: Int?
                if let since = unsyncedSince, let interval = options.syncIntervalMilliseconds {
                    wait = max(0, Int(since + Int64(interval) - Self.monotonicMilliseconds()))
                }
                if wait != 0 {
                    shared.writerWaiting = true
                    lock.waitForWork(milliseconds: wait)
                    shared.writerWaiting = false
                }
            }
            swap(&batch, &shared.buffer)
            let closing = shared.closing
            let syncNow = shared.flushTarget > shared.durableSeq || closing
            lock.broadcastProgress()   // room for blocked callers
            lock.unlock()

            var failure: FileError?
            var written = shared.lastWritten
            var rejections: [(Int, String)] = []
            for event in batch {
                do {
                    try writer.append(event)
                    written = event.seq
                } catch {
                    if case .rejected(let why) = error.kind {
                        rejections.append((event.seq, why.description))
                        written = event.seq
                    } else {
                        failure = error
                        break
                    }
                }
            }
            if !batch.isEmpty && unsyncedSince == nil { unsyncedSince = Self.monotonicMilliseconds() }
            batch.removeAll(keepingCapacity: true)
            let intervalDue = unsyncedSince.map { since in
                options.syncIntervalMilliseconds.map { Self.monotonicMilliseconds() - since >= Int64($0) } ?? false
            } ?? false
            let closeNow = closing && rejections.isEmpty
            if failure == nil && (syncNow || intervalDue) {
                do {
                    if closeNow { try writer.close() } else { try writer.flush() }
                    unsyncedSince = nil
                } catch { failure = error }
            }

            lock.lock()
            shared.lastWritten = written
            for (seq, why) in rejections {
                let marker = shared.takeSeq()
                shared.buffer.append(Event(session: session, seq: marker, t: Timestamp(milliseconds: Self.wallClockMilliseconds()),
                                           kind: .other(type: "recorder.rejected"),
                                           extra: ["rejectedSeq": .number(String(seq)), "reason": .string(why)]))
            }
            if let failure {
                shared.failure = failure
                shared.stopped = true
            } else if syncNow || intervalDue {
                shared.durableSeq = written
                uploader?.durable(upTo: written)
            }
            lock.broadcastProgress()
            if failure != nil || closeNow {
                shared.stopped = true
                shared.finished = true
                lock.broadcastProgress()
                lock.unlock()
                return
            }
        }
    }

    // MARK: Clocks

    static func wallClockMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// The recorder's mutable state; every access holds the recorder's lock.
final class Shared: @unchecked Sendable {
    var buffer: [Event] = []
    var nextSeq: Int
    var dropped = 0
    var totalDropped = 0
    /// The session's state after the events recorded: the paths that
    /// ``NavigationRecorder/stackChanged(_:to:scene:cause:meta:)`` diffs against.
    var projection: NavigationProjector
    var writerWaiting = false
    var flushTarget = 0
    var durableSeq = 0
    var lastWritten = 0
    var closing = false
    /// No more events are accepted (closed with everything written, or failed).
    var stopped = false
    var finished = false
    var failure: FileError?

    init(session: String, nextSeq: Int, capacity: Int) {
        self.nextSeq = nextSeq
        projection = NavigationProjector(session: session)
        buffer.reserveCapacity(capacity + 1)
    }

    func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Keeps the projection in step with the events recorded (the
    /// projection's rules: a pushed value is on its stack, a closed scene's
    /// stacks are gone).
    func track(_ event: Event) {
        projection.apply(event)
    }

    /// The path of `stack` in `scene` as the events recorded left it.
    func path(of stack: String, scene: String) -> [RouteValue] {
        projection.state.scenes[scene]?.stacks[stack] ?? []
    }
}

/// The log writer, used only by the writer thread once recording started.
final class WriterBox: @unchecked Sendable {
    let writer: LogWriter
    init(writer: LogWriter) { self.writer = writer }
}
