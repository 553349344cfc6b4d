#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore
import NavLogStore

/// Turns events into export rows; one per worker and input file.
protocol ExportRows: Sendable {
    /// Appends the rows of one event (and the screen view it emitted, if any) to `out`.
    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8])
}

/// Writes export rows for every input on two threads, in input order:
/// each worker renders a whole small log into a buffer that is written when
/// every earlier input has been; a large log or an NDJSON file is streamed
/// by its worker when its turn comes. At most ``aheadLimit`` inputs are
/// rendered ahead of the one being written, so memory stays bounded.
/// After a failing input nothing more is written, as if read one by one.
enum ExportWriter {
    /// Logs up to this size (bytes on disk) are rendered into a buffer.
    static let bufferedLogBytes: Int64 = 4 << 20
    static let aheadLimit = 32

    static func run<Rows: ExportRows>(
        _ inputs: AnalyticsInputs, redactor: EventRedactor?, make: @escaping @Sendable () -> Rows
    ) throws {
        let shared = ExportTurns(sources: inputs.sources)
        DispatchQueue.concurrentPerform(iterations: AnalyticsInputs.workerCount) { _ in
            let scratch = LogScanScratch()
            while let (index, source) = shared.take() {
                var rows = make()
                var out: [UInt8] = []
                if case .log(let path) = source, fileSize(path) <= bufferedLogBytes {
                    do {
                        try events(of: source, redactor: redactor, scratch: scratch) { rows.write($0, view: $1, to: &out) }
                        shared.deposit(index, out, failure: nil)
                    } catch {
                        shared.deposit(index, out, failure: error)
                    }
                } else {
                    guard shared.waitForTurn(index) else { continue }
                    do {
                        try events(of: source, redactor: redactor, scratch: scratch) { event, view in
                            rows.write(event, view: view, to: &out)
                            if out.count >= 1 << 16 {
                                Output.write(out)
                                out.removeAll(keepingCapacity: true)
                            }
                        }
                        Output.write(out)
                        shared.finishTurn(index, failure: nil)
                    } catch {
                        Output.write(out)
                        shared.finishTurn(index, failure: error)
                    }
                }
            }
        }
        Output.flushStandardOutput()
        if let failure = shared.failure { throw failure }
    }

    /// Every event of one input, redacted when asked, with the screen view it emitted.
    private static func events(of source: AnalyticsInputs.Source, redactor: EventRedactor?, scratch: LogScanScratch,
                               _ body: (Event, ScreenView?) throws -> Void) throws {
        var states: [SessionID: NavigationProjector] = [:]
        var views: [ScreenView] = []
        try AnalyticsInputs.forEachEvent(in: source, scratch: scratch) { original in
            let event = redactor.map { $0.redact(original) } ?? original
            states[SessionID(event.session), default: NavigationProjector(session: event.session)].apply(event, screenViews: &views)
            try body(event, views.last)
            views.removeAll(keepingCapacity: true)
        }
    }

    private static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : .max
    }
}

/// Whose turn it is to write, the buffers rendered ahead, and the first
/// failure; every member is used under the lock.
private final class ExportTurns: @unchecked Sendable {
    private let sources: [AnalyticsInputs.Source]
    private var nextToTake = 0
    /// The input whose rows are written next.
    private var turn = 0
    private var ready: [Int: ([UInt8], Error?)] = [:]
    /// Set when the input at `turn` failed: nothing more is written.
    private var stopped: Error?
    private var lock = pthread_mutex_t()
    private var changed = pthread_cond_t()

    init(sources: [AnalyticsInputs.Source]) {
        self.sources = sources
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&lock)
    }

    var failure: Error? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return stopped
    }

    /// The next input, waiting while too many are rendered ahead; `nil` when done or stopped.
    func take() -> (Int, AnalyticsInputs.Source)? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        while stopped == nil, nextToTake < sources.count, nextToTake - turn >= ExportWriter.aheadLimit {
            pthread_cond_wait(&changed, &lock)
        }
        guard stopped == nil, nextToTake < sources.count else { return nil }
        nextToTake += 1
        return (nextToTake - 1, sources[nextToTake - 1])
    }

    /// A rendered input (its rows up to a failure, if any): written now if
    /// it is its turn (with any ready ones after it), else kept.
    func deposit(_ index: Int, _ bytes: [UInt8], failure: Error?) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        ready[index] = (bytes, failure)
        drain()
    }

    /// Waits until every earlier input is written; `false` when stopped.
    func waitForTurn(_ index: Int) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        while stopped == nil, turn != index { pthread_cond_wait(&changed, &lock) }
        return stopped == nil
    }

    /// The input streamed at its turn is written; a failure stops the export.
    func finishTurn(_ index: Int, failure: Error?) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if let failure {
            stopped = failure
        } else {
            turn += 1
            drain()
        }
        pthread_cond_broadcast(&changed)
    }

    /// Writes ready inputs in order from `turn`; a failed one stops the export
    /// after its rows. Under the lock.
    private func drain() {
        while stopped == nil, let (bytes, failure) = ready.removeValue(forKey: turn) {
            Output.write(bytes)
            if let failure {
                stopped = failure
                break
            }
            turn += 1
        }
        pthread_cond_broadcast(&changed)
    }
}
