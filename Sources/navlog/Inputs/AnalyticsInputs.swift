#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore
import NavLogStore

/// The inputs of the analytics commands (`funnel`, `paths`, `export`),
/// resolved from the command line: each argument is a `.navlog` log, a
/// store (a directory: its `*.navlog` files, sorted by name), or an NDJSON
/// file of one or many sessions (`-` for standard input).
///
/// Until `navlog ingest`'s `Store` type lands this is the one place that
/// turns arguments into sessions; it reads logs with ``LogReader`` and
/// NDJSON with ``NDJSONEventReader``, as ``SessionInput`` does.
struct AnalyticsInputs {
    /// One file to read.
    enum Source: Hashable {
        /// A `.navlog` file: one session.
        case log(String)
        /// NDJSON: any number of sessions, interleaved or not.
        case ndjson(String)
    }

    /// The files, in argument order (a store's logs sorted by name).
    let sources: [Source]

    /// Resolves the arguments. A missing path is exit 2.
    init(_ arguments: [String]) throws {
        var sources: [Source] = []
        for argument in arguments {
            if argument == "-" { sources.append(.ndjson(argument)); continue }
            var info = stat()
            guard stat(argument, &info) == 0 else {
                throw CLIFailure.trouble("\(argument): \(String(cString: strerror(errno)))")
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                sources += try Self.logs(inStore: argument).map(Source.log)
            } else if SessionInput.isLog(argument) {
                sources.append(.log(argument))
            } else {
                sources.append(.ndjson(argument))
            }
        }
        self.sources = sources
    }

    /// The `*.navlog` files of a store directory, sorted by name (code point).
    static func logs(inStore directory: String) throws -> [String] {
        do { return try Store(directory: directory).logPaths() } catch { throw CLIFailure(error) }
    }

    // MARK: Reading

    /// Calls `body` with every event of `source`, in file order (a log's
    /// events in seq order). Rejected NDJSON lines are printed as
    /// `file:line: reason` and end the command with exit 1 after the file;
    /// a log's torn tail is reported and its prefix used; damage is exit 1.
    /// `scratch`, when given, lends a log's cursor its decoder and buffers.
    static func forEachEvent(in source: Source, scratch: LogScanScratch? = nil, _ body: (Event) throws -> Void) throws {
        switch source {
        case .log(let path):
            // Logs read start to end, thousands in a row: a small one in one read.
            let reader = try SessionInput.openLog(path, session: nil, preloadingUpTo: scratch == nil ? 0 : 1 << 20)
            let cursor = scratch.map { reader.cursor(sharing: $0) } ?? reader.cursor()
            do {
                try cursor.forEach(body)
            } catch let error as LogError {
                throw CLIFailure(error)
            }
        case .ndjson(let path):
            let reader: NDJSONEventReader
            do { reader = try NDJSONEventReader(path: path) } catch { throw CLIFailure.trouble("\(error)") }
            var sequencer = Sequencer()
            var rejected = 0
            do {
                try reader.forEach(sequencer: &sequencer) { result in
                    switch result {
                    case .success(let event): try body(event)
                    case .failure(let reject):
                        rejected += 1
                        if rejected <= SessionInput.rejectsShown { Output.error(reject.description) }
                    }
                }
            } catch {
                switch error {
                case .read(let e): throw CLIFailure.trouble("\(e)")
                case .body(let e): throw e
                }
            }
            if rejected > 0 {
                let more = rejected > SessionInput.rejectsShown ? " (\(rejected - SessionInput.rejectsShown) not shown)" : ""
                throw CLIFailure.no("\(SessionInput.displayName(path)): \(rejected) line\(rejected == 1 ? "" : "s") rejected\(more)")
            }
        }
    }

    /// Calls `body` with each session of `source`, complete, after its last
    /// event. A log is one session, followed in O(its occurrences) memory;
    /// an NDJSON file's sessions are followed side by side and handed out at
    /// its end, in order of first appearance.
    static func forEachSession(
        in source: Source, keepsMarks: Bool, scratch: LogScanScratch? = nil, names: ScreenNameCache? = nil,
        _ body: (SessionOccurrences) throws -> Void
    ) throws {
        switch source {
        case .log:
            var recorder: SessionOccurrences?
            try forEachEvent(in: source, scratch: scratch) { event in
                if recorder == nil { recorder = SessionOccurrences(session: event.session, keepsMarks: keepsMarks) }
                recorder!.add(event, names: names)
            }
            if let recorder { try body(recorder) }
        case .ndjson:
            var index: [SessionID: Int] = [:]
            var recorders: [SessionOccurrences] = []
            try forEachEvent(in: source) { event in
                let key = SessionID(event.session)
                if let i = index[key] {
                    recorders[i].add(event, names: names)
                } else {
                    index[key] = recorders.count
                    var recorder = SessionOccurrences(session: event.session, keepsMarks: keepsMarks)
                    recorder.add(event, names: names)
                    recorders.append(recorder)
                }
            }
            for recorder in recorders { try body(recorder) }
        }
    }

    /// Runs `body` over every session on `workers` threads (each takes the
    /// next unread file), each with its own accumulator from `make`, and
    /// returns the accumulators. The first failure (in file order) is thrown.
    func scanSessions<Accumulator>(
        workers: Int = AnalyticsInputs.workerCount, keepsMarks: Bool,
        make: () -> Accumulator, _ body: @escaping @Sendable (inout Accumulator, SessionOccurrences) -> Void
    ) throws -> [Accumulator] {
        Self.keepLargeBuffersInTheHeap()
        let shared = ScanState(sources: sources, accumulators: (0..<max(1, workers)).map { _ in make() })
        DispatchQueue.concurrentPerform(iterations: shared.slots.count) { worker in
            let slot = shared.slots[worker]
            let scratch = LogScanScratch()
            let names = ScreenNameCache()
            while let (i, source) = shared.take() {
                do {
                    try Self.forEachSession(in: source, keepsMarks: keepsMarks, scratch: scratch, names: names) { session in
                        body(&slot.value, session)
                    }
                } catch {
                    shared.fail(at: i, error)
                }
            }
        }
        if let failure = shared.failure { throw failure.error }
        return shared.slots.map(\.value)
    }

    /// Each log's reader allocates block buffers of a few hundred KiB; glibc
    /// would map and unmap each one (over its 128 KiB mmap threshold), and
    /// with two threads every unmap is a TLB shootdown on both cores. A scan
    /// opens thousands of logs, so buffers stay in the heap and are reused.
    private static func keepLargeBuffersInTheHeap() {
        #if canImport(Glibc)
        // mallopt(3) is not in Swift's Glibc module (malloc.h); found by name.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-3, 64 << 20)    // M_MMAP_THRESHOLD
        _ = mallopt(-1, 256 << 20)   // M_TRIM_THRESHOLD
        #endif
    }

    /// Two workers on a machine with two or more cores, else one.
    static var workerCount: Int { max(1, min(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}

/// The files left to read, each worker's accumulator and the first failure,
/// shared by the scanning threads: ``take()`` and ``fail(at:_:)`` lock; each
/// slot is touched only by its own worker until the scan ends.
private final class ScanState<Accumulator>: @unchecked Sendable {
    /// One worker's accumulator.
    final class Slot: @unchecked Sendable {
        var value: Accumulator
        init(_ value: Accumulator) { self.value = value }
    }

    let sources: [AnalyticsInputs.Source]
    let slots: [Slot]
    private(set) var failure: (index: Int, error: Error)?
    private var nextIndex = 0
    private var lock = pthread_mutex_t()

    init(sources: [AnalyticsInputs.Source], accumulators: [Accumulator]) {
        self.sources = sources
        slots = accumulators.map(Slot.init)
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    /// The next file to read, or `nil` when all are taken (or one failed).
    func take() -> (Int, AnalyticsInputs.Source)? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard failure == nil, nextIndex < sources.count else { return nil }
        nextIndex += 1
        return (nextIndex - 1, sources[nextIndex - 1])
    }

    func fail(at index: Int, _ error: Error) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if failure == nil || index < failure!.index { failure = (index, error) }
    }
}
