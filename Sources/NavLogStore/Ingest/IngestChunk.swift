#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of consecutive input lines of one ingest, dealt out to the
/// ingest's threads: each thread gets the lines of the sessions it owns (its
/// ``Share``), parses and stores them, and says what it refused. The
/// reading thread waits for the chunk to be done, then reports its
/// refusals — its own and the threads' — in line order.
final class IngestChunk: @unchecked Sendable {
    /// One input line in a share.
    struct Line {
        /// 1-based line number in its input.
        var number: Int
        /// Where its bytes are (without the `\n`): in one of the chunk's
        /// input buffers, which the chunk holds until it is done.
        var start: UnsafeRawPointer
        var length: Int
        /// Its session's number in this ingest.
        var route: Int32
        /// Where the reading thread's skim found the session's bytes in the
        /// line, when it found them (`sessionEnd` 0 when not): a parser that
        /// finds them at the same place agrees on the session.
        var sessionStart: Int32
        var sessionEnd: Int32

        /// The line's bytes.
        @inline(__always)
        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: length) }

        /// Whether the skim found the session at `range` of the line.
        @inline(__always)
        func skimmedSession(at range: Range<Int>) -> Bool {
            Int(sessionStart) == range.lowerBound && Int(sessionEnd) == range.upperBound
        }
    }

    /// The lines one thread handles. Only the reading thread touches it
    /// until the chunk is handed out; then only that thread, until it
    /// calls ``IngestChunk/finishShare(_:)``.
    final class Share {
        @exclusivity(unchecked) var lines: [Line] = []
        /// Sessions this ingest had not named before: number and id bytes.
        @exclusivity(unchecked) var newRoutes: [(route: Int, key: [UInt8])] = []
        /// What the thread refused.
        @exclusivity(unchecked) var rejections: [StoreIngester.Rejection] = []
        /// Whether the thread had stopped on an error (its lines not stored).
        @exclusivity(unchecked) var failed = false

        /// Adds a line, whose bytes stay where they are (in an input of the chunk).
        @inline(__always)
        func add(_ line: UnsafeRawBufferPointer, number: Int, route: Int, session: Range<Int>?) {
            lines.append(Line(number: number, start: line.baseAddress!, length: line.count, route: Int32(route),
                              sessionStart: Int32(session?.lowerBound ?? 0), sessionEnd: Int32(session?.upperBound ?? 0)))
        }

        func reset() {
            lines.removeAll(keepingCapacity: true)
            newRoutes.removeAll()
            rejections.removeAll()
            failed = false
        }
    }

    /// The input the lines come from (index into the ingest's inputs).
    private(set) var file = 0
    /// One share a thread.
    let shares: [Share]
    /// Lines the reading thread refused itself (over the limit, or not
    /// events at all when it had to parse them to find their session).
    var rejections: [StoreIngester.Rejection] = []
    /// Lines in the chunk, blank ones included.
    private(set) var lineCount = 0
    /// Bytes of input the chunk covers (lines and their `\n`).
    var bytesRead: Int64 = 0

    private var unfinished = 0
    /// Lines of each share not yet handled: its count when handed out, 0
    /// once its thread is done with it.
    private var unhandled: [Int]
    private var mutex = pthread_mutex_t()
    private var doneCondition = pthread_cond_t()

    init(threads: Int) {
        shares = (0..<max(threads, 1)).map { _ in Share() }
        unhandled = [Int](repeating: 0, count: shares.count)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&doneCondition, nil)
    }

    deinit {
        pthread_cond_destroy(&doneCondition)
        pthread_mutex_destroy(&mutex)
    }

    /// The buffers the input was read into that hold the chunk's lines,
    /// held until the chunk is done; `lastInput` is the reading side's
    /// number of the one added last.
    private var inputs: [ByteBuffer] = []
    private var lastInput = -1

    /// Holds input buffer `buffer`, numbered `number` by the reading side
    /// (a new buffer, a new number), when the chunk does not yet.
    @inline(__always)
    func hold(_ buffer: @autoclosure () -> ByteBuffer, number: Int) {
        if number != lastInput {
            inputs.append(buffer())
            lastInput = number
        }
    }

    /// Lets go of the input buffers, once every thread is done with the chunk.
    func releaseInputs() {
        inputs.removeAll(keepingCapacity: true)
        lastInput = -1
    }

    /// Empties the chunk for lines of input `file`.
    func reset(file: Int) {
        self.file = file
        for share in shares { share.reset() }
        rejections.removeAll()
        releaseInputs()
        lineCount = 0
        bytesRead = 0
    }

    /// Counts a line read (whatever becomes of it).
    func countLine(bytes: Int) {
        lineCount += 1
        bytesRead += Int64(bytes + 1)
    }

    /// Marks the chunk handed out: every share must then be finished.
    func handOut() {
        pthread_mutex_lock(&mutex)
        unfinished = shares.count
        for (thread, share) in shares.enumerated() { unhandled[thread] = share.lines.count }
        pthread_mutex_unlock(&mutex)
    }

    /// Called by thread `thread` when it is done with its share.
    func finishShare(_ thread: Int) {
        pthread_mutex_lock(&mutex)
        unhandled[thread] = 0
        unfinished -= 1
        if unfinished == 0 { pthread_cond_broadcast(&doneCondition) }
        pthread_mutex_unlock(&mutex)
    }

    /// Adds the lines of each share not handled yet to `counts` (by thread).
    func addUnhandledLines(to counts: inout [Int]) {
        pthread_mutex_lock(&mutex)
        for thread in counts.indices { counts[thread] += unhandled[thread] }
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until every share is finished.
    func waitUntilDone() {
        pthread_mutex_lock(&mutex)
        while unfinished > 0 { pthread_cond_wait(&doneCondition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    /// Every refusal of the chunk, in line order.
    func allRejections() -> [StoreIngester.Rejection] {
        var all = rejections
        for share in shares { all += share.rejections }
        if all.count > 1 { all.sort { $0.line < $1.line } }
        return all
    }

    /// Whether a thread had stopped on an error by the time it got here.
    var failed: Bool { shares.contains { $0.failed } }

}
