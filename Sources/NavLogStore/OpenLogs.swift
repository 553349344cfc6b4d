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

    /// ``writer(for:path:)`` without a retain: valid until the next call
    /// that may open a log (and so close another).
    @inline(__always)
    func unretainedWriter(for route: Int, path: @autoclosure () -> String) throws(LogError) -> Unmanaged<LogWriter> {
        clock += 1
        if route < writers.count, let writer = writers.withUnsafeBufferPointer({ $0[route].map(Unmanaged.passUnretained) }) {
            lastUse[route] = clock
            return writer
        }
        return Unmanaged.passUnretained(try open(route, path: path()))
    }

    /// Opens route `route`'s log, closing the least recently used one first
    /// when `limit` are open.
    @inline(never)
    private func open(_ route: Int, path: String) throws(LogError) -> LogWriter {
        if writers.count <= route {
            writers += repeatElement(nil, count: route + 1 - writers.count)
            lastUse += repeatElement(0, count: route + 1 - lastUse.count)
        }
        if open.count >= limit {
            let oldest = open.indices.min { lastUse[open[$0]] < lastUse[open[$1]] }!
            let evicted = open.remove(at: oldest)
            let writer = writers[evicted]!
            writers[evicted] = nil
            try writer.close()
            // Its buffers go to the log opened next.
            if let buffers = writer.handOnBuffers() { spareBuffers.append(buffers) }
        }
        let writer = try open(path, reopening: lastUse[route] != 0)
        writers[route] = writer
        lastUse[route] = clock
        open.append(route)
        return writer
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
        }
        open.removeAll()
        return failure
    }
}
