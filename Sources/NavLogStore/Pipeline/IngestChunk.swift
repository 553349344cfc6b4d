// Pipeline/: The write pipeline of ingest, import and store upgrade: reading lines, validating, numbering, storing, the refusals.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// A run of consecutive input lines of one ingest, copied out of the read
/// buffer: the reading thread fills it, the validating thread
/// (``IngestValidator``) says what each line is, and the reading thread
/// then stores or rejects the lines in order. Only one thread touches it at
/// a time: the queues between them hand it over.
final class IngestChunk: @unchecked Sendable {
    /// One input line.
    struct Line {
        /// 1-based line number in its input.
        var number: Int
        /// Where its bytes are in ``input`` (without the `\n`).
        var start: Int
        var length: Int
        /// The length of a line over the limit, which is read past, not kept.
        var overLimit: Int?
    }

    /// What a line is, once validated.
    enum Verdict {
        /// Blank: skipped.
        case blank
        /// Not an acceptable event.
        case rejected(Refusal)
        /// A canonical line with its seq, stored as it is: its session's bytes are at `session`.
        case canonical(session: Range<Int>, seq: Int, t: Timestamp)
        /// Any other acceptable line, as its event (numbered when it has no seq, as it is stored).
        case event(Event)
    }

    // Every line touches these: they skip run-time exclusivity checks (one
    // thread at a time, as above), which cost the reading thread ~5 % of its instructions.
    /// The input the lines come from (index into the ingest's inputs).
    @exclusivity(unchecked) private(set) var file = 0
    /// The lines' bytes, back to back.
    let input = ByteBuffer(capacity: IngestChunk.bytesTarget + (64 << 10))
    @exclusivity(unchecked) private(set) var lines: [Line] = []
    /// One a line, set by the validating thread.
    @exclusivity(unchecked) var verdicts: [Verdict] = []
    /// The canonical lines the validating thread wrote for events
    /// (``Verdict/event(_:)``), back to back, and where each line's is (a
    /// length of -1: none) with its seq slot: the storing thread stores
    /// them as they are, or with the seq it numbers them with put in.
    let written = ByteBuffer(capacity: 64 << 10)
    @exclusivity(unchecked) private var writtenLines: [(start: Int, length: Int, seqSlot: Int)] = []

    /// A canonical line the validating thread wrote.
    struct Written {
        var bytes: UnsafeRawBufferPointer
        /// Where its `seq` member goes (``CanonicalWriter/seqSlot``) when
        /// its event has none, or -1: the line has its seq.
        var seqSlot: Int
    }
    /// Bytes of input the chunk covers (lines and their `\n`).
    @exclusivity(unchecked) private(set) var bytesRead: Int64 = 0

    /// Empties the chunk for lines of input `file`.
    func reset(file: Int) {
        self.file = file
        input.removeAll()
        lines.removeAll(keepingCapacity: true)
        verdicts.removeAll(keepingCapacity: true)
        written.removeAll()
        writtenLines.removeAll(keepingCapacity: true)
        bytesRead = 0
    }

    /// Copies a line in.
    func add(_ line: NDJSONLineReader.Line) {
        if let over = line.overLimitBytes {
            lines.append(Line(number: line.number, start: input.count, length: 0, overLimit: over))
            bytesRead += Int64(over + 1)
            return
        }
        lines.append(Line(number: line.number, start: input.count, length: line.bytes.count, overLimit: nil))
        input.append(line.bytes)
        bytesRead += Int64(line.bytes.count + 1)
    }

    /// The bytes of line `i`.
    @inline(__always)
    func bytes(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: input.base + lines[i].start, count: lines[i].length)
    }

    /// Keeps the canonical line of the line whose verdict was appended
    /// last, when `line` is given, with its seq slot.
    func keepWritten(_ line: [UInt8]?, seqSlot: Int) {
        guard let line else { return writtenLines.append((0, -1, -1)) }
        writtenLines.append((written.count, line.count, seqSlot))
        written.append(line)
    }

    /// The canonical line the validating thread wrote for line `i`, if any.
    @inline(__always)
    func written(_ i: Int) -> Written? {
        let line = writtenLines[i]
        return line.length < 0 ? nil
            : Written(bytes: UnsafeRawBufferPointer(start: written.base + line.start, count: line.length), seqSlot: line.seqSlot)
    }

    /// Lines read before the chunk is handed out.
    let linesTarget: Int

    init(linesTarget: Int = IngestChunk.defaultLinesTarget) {
        self.linesTarget = max(linesTarget, 1)
    }

    /// Whether the chunk is full enough to hand out.
    var isFull: Bool { lines.count >= linesTarget || input.count >= Self.bytesTarget }

    /// Lines, and bytes, read before a chunk is handed out.
    static let defaultLinesTarget = 4096
    static let bytesTarget = 512 << 10
}

/// The validating thread of an ingest: parses each line of each chunk it
/// is given, in order, and hands the chunk on.
final class IngestValidator: @unchecked Sendable {
    private let input: BoundedQueue<IngestChunk>
    private let output: BoundedQueue<IngestChunk>

    init(input: BoundedQueue<IngestChunk>, output: BoundedQueue<IngestChunk>) {
        self.input = input
        self.output = output
    }

    /// Validates chunks until the input queue is closed, then closes the output.
    func run() {
        // Made on this thread, so that its scratch space lies in this thread's memory.
        var parser = EventLineParser(checkingCanonicalForm: true)
        var canonical = CanonicalWriter(capacity: 1024)
        while let chunk = input.pop() {
            for (i, line) in chunk.lines.enumerated() {
                var wrote = false
                chunk.verdicts.append(line.overLimit.map { .rejected(.line(.lineTooLong(bytes: $0, limit: EventParser.maxLineBytes))) }
                                      ?? Self.verdict(chunk.bytes(i), &parser, &canonical, wrote: &wrote))
                chunk.keepWritten(wrote ? canonical.bytes : nil, seqSlot: canonical.seqSlot)
            }
            guard output.push(chunk) else { break }
        }
        output.close()
    }

    /// What line `text` is.
    static func verdict(_ text: UnsafeRawBufferPointer, _ parser: inout EventLineParser,
                        _ canonical: inout CanonicalWriter) -> IngestChunk.Verdict {
        var wrote = false
        return verdict(text, &parser, &canonical, wrote: &wrote)
    }

    /// What line `text` is; `wrote` tells whether `canonical` holds the
    /// canonical line of the event it gives (one not canonical already),
    /// which is then stored as it is, or, when the event has no seq, with
    /// the seq it is numbered with put in at its ``CanonicalWriter/seqSlot``.
    static func verdict(_ text: UnsafeRawBufferPointer, _ parser: inout EventLineParser,
                        _ canonical: inout CanonicalWriter, wrote: inout Bool) -> IngestChunk.Verdict {
        wrote = false
        if text.count > EventParser.maxLineBytes { return .rejected(.line(.lineTooLong(bytes: text.count, limit: EventParser.maxLineBytes))) }
        if NDJSONLineReader.isBlank(text) { return .blank }
        // `key`: a canonical line read without building its event, `state.restore` ones included.
        if let summary = parser.key(text) { return .canonical(session: summary.session, seq: summary.seq, t: summary.t) }
        let event: Event
        do throws(EventParseError) { event = try parser.parse(text, tryingFastPath: false) } catch {
            return .rejected(.line(error))
        }
        guard event.seq != 0 else {
            canonical.reset()
            parser.writeCanonical(event, into: &canonical)
            wrote = true
            return .event(event)
        }
        // A canonical line the summary does not read (an object in it, say) is stored as it is too:
        // when the parser vouches for it, or when writing its event canonically gives the line back.
        // Any other event with a seq is written canonically here, once: the storing thread stores those bytes.
        // (The session's place is only looked for in a line that is canonical.)
        func session() -> Range<Int>? {
            SessionSkim.sessionBytes(in: text).flatMap { range in
                SessionID.same(event.session, utf8: UnsafeRawBufferPointer(rebasing: text[range])) ? range : nil
            }
        }
        if parser.lastLineIsCanonical, let session = session() { return .canonical(session: session, seq: event.seq, t: event.t) }
        canonical.reset()
        parser.writeCanonical(event, into: &canonical)
        // memcmp: both hold text.count bytes, and a line is never empty here.
        if canonical.bytes.count == text.count,
           canonical.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }),
           let session = session() {
            return .canonical(session: session, seq: event.seq, t: event.t)
        }
        wrote = true
        return .event(event)
    }
}
