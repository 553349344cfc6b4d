#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// The write side of the collector (`navlog serve`): the store's one
/// ``SegmentWriter``, owned by one thread, storing upload requests through
/// the same ``StoreSink`` as `ingest` (each request one input, numbered on
/// its own) and answering each only once what it stored is durable.
///
/// **Group commit.** The thread takes every request waiting, stores them
/// one after the other, commits once (one sync for all of them), and only
/// then answers each. Under load a commit covers many requests; alone, a
/// request waits for its own commit.
///
/// **Back-pressure.** At most ``Options/queueCapacity`` requests wait; a
/// request beyond that is refused at once with ``Failure/busy`` (HTTP 429),
/// nothing of it stored.
///
/// ```swift
/// let collector = try StoreCollector(store: try StoreTarget.openForWriting(at: "events"))
/// let answer = try await collector.store(try CollectorUpload(body: bytes, session: nil, limits: .init()))
/// try collector.close()     // what was queued is stored and committed; the lock released
/// ```
public final class StoreCollector: @unchecked Sendable {
    /// Settings.
    public struct Options: Sendable {
        /// How the store is written.
        public var writerOptions: SegmentWriterOptions
        /// Requests that may wait for the writer before more are refused as
        /// busy; 0 refuses every request as busy (to test the refusal).
        public var queueCapacity: Int
        /// Called on the writer's thread after each commit: requests and
        /// events it covered, and how long the storing and sync took (seconds).
        public var onCommit: @Sendable (_ requests: Int, _ events: Int, _ seconds: Double) -> Void

        public init(writerOptions: SegmentWriterOptions = SegmentWriterOptions(), queueCapacity: Int = 256,
                    onCommit: @escaping @Sendable (Int, Int, Double) -> Void = { _, _, _ in }) {
            self.writerOptions = writerOptions
            self.queueCapacity = max(queueCapacity, 0)
            self.onCommit = onCommit
        }
    }

    /// Why a request was not stored.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The queue is full: try again later.
        case busy
        /// The collector is closing or closed.
        case closed
        /// The store could not be written: this request, and every one after it, fails.
        case store(SegmentStoreError)

        public var description: String {
            switch self {
            case .busy: "the writer is behind: too many requests are waiting"
            case .closed: "the collector is shutting down"
            case .store(let error): error.description
            }
        }
    }

    /// A request waiting, and whom to answer.
    private struct Job: Sendable {
        var upload: CollectorUpload
        var reply: @Sendable (Result<CollectorAnswer, Failure>) -> Void
    }

    public let options: Options
    private let queue: BoundedQueue<Job>
    // The writer's thread alone touches these (and `close` after joining it).
    private let writer: SegmentWriter
    private let sink: StoreSink
    private var failure: SegmentStoreError?
    private var thread: WorkerThread?
    private var closeFailure: SegmentStoreError?

    /// Starts the writer's thread on `store` (opened for writing).
    ///
    /// - Throws: ``SegmentStoreError`` when the writer cannot open the store.
    public init(store: SegmentStore, options: Options = Options()) throws(SegmentStoreError) {
        self.options = options
        writer = try SegmentWriter(store: store, options: options.writerOptions)
        sink = StoreSink(writer: writer)
        queue = BoundedQueue(capacity: options.queueCapacity)
        thread = WorkerThread { [self] in run() }
    }

    /// Requests waiting for the writer now.
    public var queueDepth: Int { queue.snapshot.count }

    /// Hands `upload` to the writer; `reply` runs on the writer's thread
    /// once it is durable (or failed). Returns ``Failure/busy`` or
    /// ``Failure/closed`` at once, without calling `reply`, when it is not taken.
    public func submit(_ upload: CollectorUpload,
                       reply: @escaping @Sendable (Result<CollectorAnswer, Failure>) -> Void) -> Failure? {
        if options.queueCapacity > 0, queue.tryPush(Job(upload: upload, reply: reply)) { return nil }
        return queue.snapshot.closed ? .closed : .busy
    }

    /// Stores `upload` and returns once it is durable.
    ///
    /// - Throws: ``Failure``.
    public func store(_ upload: CollectorUpload) async throws(Failure) -> CollectorAnswer {
        let result: Result<CollectorAnswer, Failure> = await withCheckedContinuation { continuation in
            if let refused = submit(upload, reply: { continuation.resume(returning: $0) }) {
                continuation.resume(returning: .failure(refused))
            }
        }
        return try result.get()
    }

    /// Stops taking requests, stores and answers those waiting, commits,
    /// and closes the writer (the store's lock released). Call it once.
    ///
    /// - Throws: ``SegmentStoreError`` when the last commit or the close failed.
    public func close() throws(SegmentStoreError) {
        queue.close()
        thread?.join()
        thread = nil
        if let closeFailure { throw closeFailure }
    }

    /// The writer's thread: serves groups of requests until the queue is closed and drained.
    private func run() {
        while let first = queue.pop() {
            var group = [first]
            while group.count < Self.groupLimit, let next = queue.tryPop() { group.append(next) }
            serve(group)
        }
        do { try writer.close() } catch { closeFailure = failure ?? error }
    }

    /// Stores each request of `group` as an input of its own, commits once, then answers each.
    private func serve(_ group: [Job]) {
        let started = OpenFile.monotonicMilliseconds()
        var answers: [CollectorAnswer] = []
        answers.reserveCapacity(group.count)
        var events = 0
        for job in group where failure == nil {
            do throws(SegmentStoreError) {
                answers.append(try store(job.upload))
                events += job.upload.events
            } catch { failure = error }
        }
        if failure == nil {
            do { try writer.commit() } catch { failure = error }
        }
        if let failure {
            for job in group { job.reply(.failure(.store(failure))) }
            return
        }
        options.onCommit(group.count, events, Double(OpenFile.monotonicMilliseconds() - started) / 1000)
        for (job, answer) in zip(group, answers) { job.reply(.success(answer)) }
    }

    /// Stores one request's lines (one input) and says what they came to.
    private func store(_ upload: CollectorUpload) throws(SegmentStoreError) -> CollectorAnswer {
        sink.startInput()
        let before = writer.counts
        var rejected: [CollectorAnswer.Rejected] = []
        var trouble: SegmentStoreError?
        upload.body.withUnsafeBytes { all in
            for line in upload.lines {
                let text = UnsafeRawBufferPointer(rebasing: all[line.start..<(line.start + line.length)])
                let refusal: Refusal?
                do throws(SegmentStoreError) { refusal = try sink.store(line.verdict, line: text) } catch {
                    trouble = error
                    return
                }
                if let refusal { rejected.append(CollectorAnswer.Rejected(line: line.number, reason: refusal.description)) }
            }
        }
        if let trouble { throw trouble }
        let after = writer.counts
        return CollectorAnswer(stored: after.stored - before.stored, duplicates: after.duplicates - before.duplicates,
                               rejected: rejected)
    }

    /// The most requests one commit covers (so that one answer never waits for too many others).
    private static let groupLimit = 512
}
