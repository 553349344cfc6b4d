#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Input lines gathered to be parsed together: copied out of the reader's
/// buffer, parsed on a ``LineParsePool`` thread (or by the caller), then
/// read back in input order.
final class LineChunk: @unchecked Sendable {
    /// One input line.
    struct Line {
        /// 1-based line number in its input.
        var number: Int
        /// Where its bytes are in ``bytes`` (without the `\n`).
        var start: Int
        var length: Int
        /// The length of a line over the limit, which was read past (no bytes).
        var overLimitBytes: Int?
    }

    /// What parsing made of a line.
    enum Parsed {
        /// The event, and whether the line was already its canonical form.
        case event(Event, canonical: Bool)
        /// Why the line is not an event.
        case rejected(EventParseError)
        /// Only whitespace: skipped.
        case blank
        /// Over the length limit: not parsed.
        case overLimit(Int)
    }

    /// The input the lines come from (index into the ingest's inputs).
    let file: Int
    private(set) var bytes: [UInt8] = []
    private(set) var lines: [Line] = []
    /// One result a line, once ``isParsed``.
    private(set) var parsed: [Parsed] = []

    private var mutex = pthread_mutex_t()
    private var parsedCondition = pthread_cond_t()
    private var done = false

    init(file: Int, capacity: Int) {
        self.file = file
        bytes.reserveCapacity(capacity + 4096)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&parsedCondition, nil)
    }

    deinit {
        pthread_cond_destroy(&parsedCondition)
        pthread_mutex_destroy(&mutex)
    }

    /// Copies a line in (before the chunk is handed to the pool).
    func add(_ line: NDJSONLineReader.Line) {
        lines.append(Line(number: line.number, start: bytes.count, length: line.bytes.count, overLimitBytes: line.overLimitBytes))
        bytes.append(contentsOf: line.bytes)
    }

    /// The bytes of line `i`.
    func withLine<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let line = lines[i]
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[line.start..<line.start + line.length])) }
    }

    /// Parses every line with `parser`, then marks the chunk parsed. Called
    /// once, by whichever thread took the chunk.
    func parse(with parser: inout EventLineParser) {
        var results: [Parsed] = []
        results.reserveCapacity(lines.count)
        bytes.withUnsafeBytes { all in
            for line in lines {
                if let over = line.overLimitBytes {
                    results.append(.overLimit(over))
                    continue
                }
                let text = UnsafeRawBufferPointer(rebasing: all[line.start..<line.start + line.length])
                if NDJSONLineReader.isBlank(text) {
                    results.append(.blank)
                    continue
                }
                do throws(EventParseError) {
                    let event = try parser.parse(text)
                    results.append(.event(event, canonical: parser.lastLineIsCanonical))
                } catch {
                    results.append(.rejected(error))
                }
            }
        }
        pthread_mutex_lock(&mutex)
        parsed = results
        done = true
        pthread_cond_broadcast(&parsedCondition)
        pthread_mutex_unlock(&mutex)
    }

    /// Moves line `i`'s result out (leaving `.blank`), sparing the copy.
    /// Only after ``waitUntilParsed()``, by the thread that waited.
    func takeParsed(_ i: Int) -> Parsed {
        parsed.withUnsafeMutableBufferPointer { results in
            let result = (results.baseAddress! + i).move()
            (results.baseAddress! + i).initialize(to: .blank)
            return result
        }
    }

    /// Whether ``parse(with:)`` has finished.
    var isParsed: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return done
    }

    /// Waits until ``parse(with:)`` has finished.
    func waitUntilParsed() {
        pthread_mutex_lock(&mutex)
        while !done { pthread_cond_wait(&parsedCondition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
}

/// Threads that parse ``LineChunk``s while the caller reads ahead, so
/// parsing, the costliest step of reading NDJSON, uses every core. The
/// caller gets the chunks back in the order it submitted them
/// (``next()``), and parses queued chunks itself while it would otherwise
/// wait. At most `window` chunks are in flight: memory stays bounded.
final class LineParsePool {
    private let queue: BoundedQueue<LineChunk>
    private let threads: [WorkerThread]
    private var inFlight: [LineChunk?] = []
    private var stopped = false
    private var head = 0
    private var parser = EventLineParser(checkingCanonicalForm: true)
    /// Chunks submitted and not yet taken back.
    let window: Int

    /// Starts `threads` parsing threads (0: the caller parses everything).
    init(threads: Int, window: Int) {
        self.window = max(window, 1)
        let queue = BoundedQueue<LineChunk>(capacity: self.window)
        self.queue = queue
        self.threads = (0..<max(threads, 0)).map { _ in
            WorkerThread {
                var parser = EventLineParser(checkingCanonicalForm: true)
                while let chunk = queue.pop() { chunk.parse(with: &parser) }
            }
        }
    }

    deinit { stop() }

    /// Whether ``submit(_:)`` would have to wait for the oldest chunk.
    var isFull: Bool { inFlight.count - head >= window }

    /// Queues a chunk for parsing. Call only when not ``isFull``.
    func submit(_ chunk: LineChunk) {
        inFlight.append(chunk)
        if threads.isEmpty || !queue.tryPush(chunk) { chunk.parse(with: &parser) }
    }

    /// The oldest chunk submitted, parsed; `nil` when none is in flight.
    func next() -> LineChunk? {
        guard head < inFlight.count else { return nil }
        let chunk = inFlight[head]!
        inFlight[head] = nil
        head += 1
        if head > 64 && head * 2 > inFlight.count {
            inFlight.removeFirst(head)
            head = 0
        }
        // Help rather than wait: parse chunks still queued.
        while !chunk.isParsed, let queued = queue.tryPop() { queued.parse(with: &parser) }
        chunk.waitUntilParsed()
        return chunk
    }

    /// Stops the threads (chunks still queued are parsed first).
    func stop() {
        guard !stopped else { return }
        stopped = true
        queue.close()
        for thread in threads { thread.join() }
    }
}
