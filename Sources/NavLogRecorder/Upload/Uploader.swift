import Foundation
import NavLogCore
import NavLogStore

/// Ships a recorder's durable events to a collector from its own thread.
///
/// The local log is the queue: the uploader reads back, with a
/// ``LogReader``, the events after the acknowledged seq up to the durable
/// one (never events only in memory), sends them in batches, and after each
/// 200 advances the acknowledged seq and keeps it in the side file
/// (``UploadProgress``). Failures pause (``RetryPause``, or `Retry-After`);
/// a 413 halves the batch; an event too large alone is counted and passed.
final class Uploader: @unchecked Sendable {
    let options: UploadOptions
    let session: String
    let logPath: String
    let progressPath: String

    private let lock = RecorderLock()
    private let exchange = HTTPExchange()
    // Guarded by `lock`:
    private var durableSeq: Int
    private var status: UploadStatus
    private var sendAllRequested = false
    private var stopping = false
    private var finished = false

    /// An uploader for the log at `logPath`, whose events up to
    /// `durableSeq` are durable; it resumes after the seq in the side file.
    ///
    /// - Throws: ``FileError`` when the side file cannot be read.
    init(logPath: String, session: String, durableSeq: Int, options: UploadOptions) throws(FileError) {
        self.options = options
        self.session = session
        self.logPath = logPath
        progressPath = UploadProgress.path(forLog: logPath)
        self.durableSeq = durableSeq
        status = UploadStatus(acknowledgedSeq: min(try UploadProgress.load(progressPath), durableSeq))
    }

    /// Starts the uploader's thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "navlog-uploader"
        thread.start()
    }

    /// Events up to `seq` are durable (called by the recorder's writer thread).
    func durable(upTo seq: Int) {
        lock.lock()
        if seq > durableSeq {
            durableSeq = seq
            if durableSeq - status.acknowledgedSeq >= options.batchEvents { lock.signalWork() }
        }
        lock.unlock()
    }

    /// Sends every durable event now, without waiting for a batch to fill
    /// or a pause after a failure to end.
    func sendAll() {
        lock.lock()
        sendAllRequested = true
        lock.signalWork()
        lock.unlock()
    }

    /// Stops the uploader (the request in flight is cancelled) and waits
    /// for its thread to end. What is not acknowledged stays in the log.
    func stop() {
        lock.lock()
        stopping = true
        lock.signalWork()
        lock.unlock()
        exchange.cancel()
        lock.lock()
        while !finished { lock.waitForProgress() }
        lock.unlock()
    }

    /// Stops the uploader without waiting (a recorder released without close()).
    func stopSoon() {
        lock.lock()
        stopping = true
        lock.signalWork()
        lock.unlock()
        exchange.cancel()
    }

    var currentStatus: UploadStatus {
        lock.lock()
        defer { lock.unlock() }
        return status
    }

    // MARK: The uploader thread

    private func run() {
        var reader: LogReader?
        var limit = options.maxEventsPerRequest
        var pause = RetryPause(minimum: options.retryMinimumMilliseconds, maximum: options.retryMaximumMilliseconds)
        var random = SystemRandomNumberGenerator()
        var retryAt: Int64?        // monotonic ms: no attempt before
        var waitingSince: Int64?   // monotonic ms: since when events wait
        var sendingAll = false
        lock.lock()
        while !stopping {
            let now = NavigationRecorder.monotonicMilliseconds()
            if sendAllRequested {
                sendAllRequested = false
                sendingAll = true
                retryAt = nil
                pause.reset()
            }
            let acknowledged = status.acknowledgedSeq
            let waiting = durableSeq - acknowledged
            if waiting <= 0 {
                waitingSince = nil
                sendingAll = false
                lock.waitForWork(milliseconds: nil)
                continue
            }
            let since = waitingSince ?? now
            waitingSince = since
            let dueAt = retryAt ?? (sendingAll || waiting >= options.batchEvents ? now : since + Int64(options.intervalMilliseconds))
            if dueAt > now {
                lock.waitForWork(milliseconds: Int(dueAt - now))
                continue
            }
            let upTo = durableSeq
            lock.unlock()

            let attempt = send(after: acknowledged, upTo: upTo, limit: limit, reader: &reader)

            lock.lock()
            let after = NavigationRecorder.monotonicMilliseconds()
            var acknowledgedNow: Int?
            switch attempt {
            case .sent(let lastSeq, let outcome, let count):
                status.requests += 1
                switch outcome {
                case .acknowledged(let stored, let duplicates, let rejected):
                    status.stored += stored
                    status.duplicates += duplicates
                    status.rejected += rejected
                    acknowledgedNow = lastSeq
                    pause.reset()
                    retryAt = nil
                    waitingSince = durableSeq > lastSeq ? after : nil
                case .tooLarge(let problem):
                    status.tooLarge += 1
                    status.problem = problem
                    if count > 1 {
                        limit = max(1, count / 2)
                    } else {
                        status.rejected += 1   // this one event cannot go: pass it
                        acknowledgedNow = lastSeq
                    }
                case .slowDown(let seconds, let problem):
                    status.retries += 1
                    status.problem = problem
                    retryAt = after + Int64(min(seconds, 3600)) * 1000
                case .retry(let problem):
                    status.retries += 1
                    status.problem = problem
                    retryAt = after + Int64(pause.next(using: &random))
                case .cancelled:
                    break
                }
            case .nothing:
                // The reader does not see durable events yet (or only seqs the
                // writer refused so far): look again shortly.
                retryAt = after + Int64(options.retryMinimumMilliseconds)
            case .failed(let problem):
                status.retries += 1
                status.problem = problem
                reader = nil
                retryAt = after + Int64(pause.next(using: &random))
            }
            if let seq = acknowledgedNow {
                status.acknowledgedSeq = max(status.acknowledgedSeq, seq)
                status.problem = nil
                // Only this thread moves the acknowledged seq: the side file
                // is replaced without holding the lock the recorder's writer takes.
                let saved = status.acknowledgedSeq
                lock.unlock()
                let failure = Self.save(saved, to: progressPath)
                lock.lock()
                if let failure { status.problem = failure }
            }
        }
        finished = true
        lock.broadcastProgress()
        lock.unlock()
    }

    /// Keeps `seq` in the side file; the problem when it cannot.
    private static func save(_ seq: Int, to path: String) -> UploadProblem? {
        do {
            try UploadProgress.save(seq, to: path)
            return nil
        } catch {
            return .local(error.description)
        }
    }

    /// The result of one attempt.
    private enum Attempt {
        /// A request for the events up to `lastSeq` (`count` of them) was sent.
        case sent(lastSeq: Int, UploadRequest.Outcome, count: Int)
        /// The log holds no event in the range yet.
        case nothing
        /// The log could not be read or the body not made.
        case failed(UploadProblem)
    }

    /// Reads up to `limit` events after `acknowledged` (at most up to
    /// `upTo`) from the log and sends them as one request.
    private func send(after acknowledged: Int, upTo: Int, limit: Int, reader: inout LogReader?) -> Attempt {
        var body: [UInt8] = []
        var count = 0
        var lastSeq = acknowledged
        do {
            let log: LogReader
            if let reader {
                log = reader
                try log.refresh()
            } else {
                log = try LogReader(path: logPath)
                reader = log
            }
            let cursor = log.cursor(fromSeq: acknowledged + 1, toSeq: upTo)
            var writer = CanonicalWriter()
            while count < limit, let event = try cursor.next() {
                writer.reset()
                writer.write(event)
                body.append(contentsOf: writer.bytes)
                body.append(0x0A)
                count += 1
                lastSeq = event.seq
            }
            if count == 0 { return .nothing }
            let upload = UploadRequest(body: body, session: session, options: options)
            let answer = exchange.send(try upload.urlRequest())
            return .sent(lastSeq: lastSeq, upload.outcome(of: answer), count: count)
        } catch {
            return .failed(.local(error.description))
        }
    }
}
