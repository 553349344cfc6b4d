#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The logs a writing thread keeps open, at most `limit` at once: when
/// another is needed, the least recently used is closed (sealed, its footer
/// written) first. Logs are known by a route number (small, dense: an index
/// here); a closed one is reopened, continuing, when its route comes back.
///
/// A log whose session ended (``sessionEnded(_:)``) stays open, in case
/// the session goes on, until a log opened later needs buffers: the least
/// recently used of the ended ones is then closed and hands its buffers on,
/// rather than new ones being made (a block's worth of fresh pages for
/// every session, up to `limit` of them).
final class OpenLogs {
    private let limit: Int
    private let options: LogWriterOptions
    private let preambleSyncer: PreambleSyncer?
    /// By route: its writer while open, and when it was last used.
    @exclusivity(unchecked) private var writers: [LogWriter?] = []
    @exclusivity(unchecked) private var lastUse: [Int] = []
    /// The routes open now.
    @exclusivity(unchecked) private var open: [Int] = []
    @exclusivity(unchecked) private var clock = 0
    /// What closed writers handed on (``LogWriterBuffers``), for the next ones.
    @exclusivity(unchecked) private var spareBuffers: [LogWriterBuffers] = []
    /// By route: whether its session ended while its log was open.
    @exclusivity(unchecked) private var ended: [Bool] = []

    /// Logs kept open at most `limit` at once; new logs' preambles synced by
    /// `preambleSyncer` when given (``LogWriter``).
    init(limit: Int, options: LogWriterOptions, preambleSyncer: PreambleSyncer? = nil) {
        self.limit = max(limit, 1)
        self.options = options
        self.preambleSyncer = preambleSyncer
    }

    /// The writer of route `route`'s log at `path`, opened when it is not.
    ///
    /// - Throws: ``LogError`` when the least recently used log cannot be
    ///   closed or this one cannot be opened.
    @inline(__always)
    func writer(for route: Int, path: @autoclosure () -> String) throws(LogError) -> LogWriter {
        clock += 1
        if route < writers.count, let writer = writers[route] {
            lastUse[route] = clock
            return writer
        }
        return try open(route, path: path())
    }

    /// Opens route `route`'s log, closing the least recently used one first
    /// when `limit` are open.
    @inline(never)
    private func open(_ route: Int, path: String) throws(LogError) -> LogWriter {
        if writers.count <= route {
            writers += repeatElement(nil, count: route + 1 - writers.count)
            lastUse += repeatElement(0, count: route + 1 - lastUse.count)
            ended += repeatElement(false, count: route + 1 - ended.count)
        }
        if open.count >= limit {
            try close(at: open.indices.min { lastUse[open[$0]] < lastUse[open[$1]] }!)
        } else if spareBuffers.isEmpty,
                  let oldestEnded = open.indices.filter({ ended[open[$0]] }).min(by: { lastUse[open[$0]] < lastUse[open[$1]] }) {
            try close(at: oldestEnded)
        }
        let writer = try open(path, reopening: lastUse[route] != 0)
        writers[route] = writer
        lastUse[route] = clock
        open.append(route)
        return writer
    }

    /// Notes that route `route`'s session ended (its `session.end` was
    /// stored): its log is the first to close when buffers are needed.
    func sessionEnded(_ route: Int) {
        if route < ended.count, writers[route] != nil { ended[route] = true }
    }

    /// Closes the log at `index` of ``open``; its buffers go to the log opened next.
    private func close(at index: Int) throws(LogError) {
        let route = open.remove(at: index)
        let writer = writers[route]!
        writers[route] = nil
        ended[route] = false
        try writer.close()
        if let buffers = writer.handOnBuffers() { spareBuffers.append(buffers) }
    }

    /// Opens a log; one this thread closed itself is given a moment when it
    /// is still locked. A child process forked by another thread of this
    /// process holds copies of our descriptors, and with them the lock we
    /// released, until it execs (they are close-on-exec): a few milliseconds
    /// at most. A log locked by another writer is still refused, later.
    private func open(_ path: String, reopening: Bool) throws(LogError) -> LogWriter {
        var attempts = 0
        var buffers = spareBuffers.popLast()
        while true {
            do {
                defer { buffers = nil }
                return try LogWriter(path: path, options: options, preambleSyncer: preambleSyncer, buffers: buffers)
            } catch {
                guard reopening, case .locked = error.kind, attempts < 40 else { throw error }
                attempts += 1
                usleep(5_000)
            }
        }
    }

    /// Closes every open log, even after a failure; returns the first error.
    func closeAll() -> LogError? {
        var failure: LogError?
        for route in open {
            do { try writers[route]!.close() } catch { if failure == nil { failure = error } }
            writers[route] = nil
            ended[route] = false
        }
        open.removeAll()
        return failure
    }
}
