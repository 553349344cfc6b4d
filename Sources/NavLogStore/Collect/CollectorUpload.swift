import NavLogCore

/// One upload request's NDJSON body, read and validated on the caller's
/// thread before it goes to the collector's writer: each line's verdict
/// (``IngestValidator/verdict(_:_:_:)``, the one that `ingest` uses), and
/// the limits, the `Navlog-Session` rule and every event's `seq` checked. What is refused here as a whole
/// (``CollectorUpload/Refusal``) stores nothing.
///
/// ```swift
/// let upload = try CollectorUpload(body: bytes, session: "s1", limits: .init())
/// ```
public struct CollectorUpload: Sendable {
    /// Limits on one request.
    public struct Limits: Hashable, Sendable {
        /// The most bytes of body, after decompression.
        public var maxBytes: Int
        /// The most events (non-blank lines) of an NDJSON body (a log's events are not counted).
        public var maxEvents: Int
        /// The most bytes of a log's events once decompressed (their canonical lines).
        public var maxLogEventBytes: Int

        public init(maxBytes: Int = 10 << 20, maxEvents: Int = 5_000, maxLogEventBytes: Int = 64 << 20) {
            self.maxBytes = maxBytes
            self.maxEvents = maxEvents
            self.maxLogEventBytes = maxLogEventBytes
        }
    }

    /// Why a whole request is refused (nothing of it is stored).
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// More events than ``Limits/maxEvents``.
        case tooManyEvents(count: Int, limit: Int)
        /// More bytes than ``Limits/maxBytes``.
        case tooLarge(limit: Int)
        /// The body is not NDJSON (a line does not open a JSON object, or there is no line).
        case notNDJSON(String)
        /// A line's session is not the one the request names.
        case otherSession(line: Int, expected: String, found: String)
        /// An event without `seq`: an upload's events carry theirs, so that a retry is deduplicated.
        case missingSeq(line: Int)
        /// The body is not a `.navlog` file (`POST /v1/logs`).
        case notALog(String)
        /// A log's events, decompressed, are over ``Limits/maxLogEventBytes``.
        case logTooLarge(limit: Int)
        /// The log could not be set down in a temporary file to be read (trouble on the server's side).
        case spool(String)

        /// Whether the refusal is about a limit (HTTP 413) rather than the body (400).
        public var isOverLimit: Bool {
            switch self {
            case .tooManyEvents, .tooLarge, .logTooLarge: true
            case .notNDJSON, .otherSession, .missingSeq, .notALog, .spool: false
            }
        }

        public var description: String {
            switch self {
            case .tooManyEvents(let count, let limit): "\(count) events, over the limit of \(limit) events a request"
            case .tooLarge(let limit): "the body is over the limit of \(limit) bytes (after decompression)"
            case .notNDJSON(let why): "the body is not NDJSON: \(why)"
            case .otherSession(let line, let expected, let found):
                "line \(line): session \"\(found)\" is not the request's Navlog-Session \"\(expected)\""
            case .missingSeq(let line):
                "line \(line): the event has no seq (an upload's events each carry theirs, so that a retry stores nothing twice)"
            case .notALog(let why): "the body is not a navlog file: \(why)"
            case .logTooLarge(let limit): "the log's events are over the limit of \(limit) bytes (\(limit >> 20) MiB, decompressed)"
            case .spool(let why): "the log could not be read: \(why)"
            }
        }
    }

    /// One non-blank line: where its bytes are in ``body`` and what it is.
    struct Line: Sendable {
        var number: Int
        var start: Int
        var length: Int
        var verdict: IngestChunk.Verdict
    }

    let body: [UInt8]
    let lines: [Line]

    /// An upload of lines already read and checked (a log's).
    init(body: [UInt8], lines: [Line]) {
        self.body = body
        self.lines = lines
    }
    /// Events (non-blank lines) in the body.
    public var events: Int { lines.count }

    /// Reads and validates `body`.
    ///
    /// - Parameter session: the request's `Navlog-Session`, when it has one.
    /// - Throws: ``Refusal`` when the request is refused as a whole.
    public init(body: [UInt8], session: String?, limits: Limits) throws(Refusal) {
        guard body.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var parser = EventLineParser(checkingCanonicalForm: true)
        var canonical = CanonicalWriter(capacity: 1024)
        var lines: [Line] = []
        let failure: Refusal? = body.withUnsafeBytes { all -> Refusal? in
            do throws(Refusal) {
                try NDJSONLineReader.forEachLine(in: all) { (number, text, start) throws(Refusal) in
                    if NDJSONLineReader.isBlank(text) { return }
                    if let problem = Self.notNDJSON(text) { throw .notNDJSON("line \(number): \(problem)") }
                    guard lines.count < limits.maxEvents else {
                        throw .tooManyEvents(count: Self.countEvents(all, from: start) + lines.count, limit: limits.maxEvents)
                    }
                    let verdict = IngestValidator.verdict(text, &parser, &canonical)
                    let found: String?
                    switch verdict {
                    case .event(let event) where event.seq == 0: throw .missingSeq(line: number)
                    case .event(let event): found = event.session
                    case .canonical(let range, _, _): found = String(decoding: UnsafeRawBufferPointer(rebasing: text[range]), as: UTF8.self)
                    case .blank, .rejected: found = nil
                    }
                    if let session, let found, found != session {
                        throw .otherSession(line: number, expected: session, found: found)
                    }
                    lines.append(Line(number: number, start: start, length: text.count, verdict: verdict))
                }
            } catch { return error }
            return nil
        }
        if let failure { throw failure }
        guard !lines.isEmpty else { throw .notNDJSON("it holds no event") }
        self.body = body
        self.lines = lines
    }

    /// Why a non-blank line shows the body is not NDJSON, or `nil`: each
    /// must open a JSON object (one that opens it and is not an event is
    /// rejected on its own, in the answer).
    private static func notNDJSON(_ text: UnsafeRawBufferPointer) -> String? {
        guard let first = text.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        guard first == UInt8(ascii: "{") else { return "a line is one JSON object, and this one does not start with {" }
        return nil
    }

    /// Non-blank lines from `start` on (to say how many events a request over the limit has).
    private static func countEvents(_ all: UnsafeRawBufferPointer, from start: Int) -> Int {
        var count = 0
        NDJSONLineReader.forEachLine(in: UnsafeRawBufferPointer(rebasing: all[start...])) { _, text, _ in
            if !NDJSONLineReader.isBlank(text) { count += 1 }
        }
        return count
    }
}
