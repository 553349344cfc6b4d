#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Where each session of an NDJSON input ends: the numbers of the lines
/// that are their session's last, found by a first read that only skims
/// each line for its session. A reader that finishes a session at its last
/// line keeps in memory only the sessions under way (begun, not ended),
/// whatever the number of sessions, one after another or interleaved, and
/// never finishes a session that has lines further on.
///
/// The first read records one pair (session hash, line) per run of lines
/// of one session (a run ends where the session leaves the table of the
/// sessions met lately, ``RecentRuns``, or at the part's end),
/// sorts them by hash (``PairSorter``, spilled to temporary files past
/// 1M runs), keeps the last line of each hash, and sorts those by
/// line. Sessions whose ids share a hash (XXH64) keep one end, the last
/// line of them all: the others are finished at the input's end. Standard
/// input is copied to a temporary file first (read twice, it is read from
/// there: ``readPath``).
///
/// ```swift
/// let ends = try SessionEnds(path: "events.ndjson")
/// var next = try ends.next()                    // the first session's last line
/// // at line `next`: finish that line's session, then `next = try ends.next()`
/// ```
final class SessionEnds {
    /// The input's name as the user gave it (`-` for standard input).
    let path: String
    /// Where the input is read from: `path`, or the copy of standard input.
    let readPath: String
    /// Lines read by the first read (the input's lines beyond are not read).
    private(set) var lines = 0
    /// The share of the input's sessions read (``NDJSONShare``).
    let share: NDJSONShare
    /// When the input is read in shares: a bit for each line (from line 1)
    /// that this share parses (``parses(_:)``).
    private var parsed: [UInt64] = []
    private let byLine: PairSorter
    private let chunk: Int
    private var spooled: String?

    /// Reads `path` once for the sessions of `share` (``NDJSONShare``);
    /// `chunk` pairs are sorted in memory before they spill to a file. With
    /// `firstRead` of several parts, this thread skims part `share.index`
    /// of the input for every share, and waits for the threads of the other
    /// parts (``SessionFirstRead``).
    init(path: String, share: NDJSONShare = .whole, chunk: Int = 1 << 20,
         firstRead: SessionFirstRead = .whole) throws(SessionStreamError) {
        self.path = path
        self.share = share
        self.chunk = chunk
        byLine = PairSorter(chunk: chunk)
        if path == "-" {
            let copy = try Self.spoolStandardInput()
            spooled = copy
            readPath = copy
        } else {
            readPath = path
        }
        let part = firstRead.parts == 1 ? 0 : share.index
        let found = try firstRead.read(part: part) { () throws(SessionStreamError) in
            try skimPart(firstRead.range(of: part), shares: share.count)
        }
        lines = found.last?.lines ?? 0
        // The lines this share parses, as every part marked them (parts mark disjoint lines).
        var parsed: [UInt64] = []
        for part in found {
            let marks = part.parsed[share.index]
            if parsed.count < marks.count { parsed += repeatElement(0, count: marks.count - parsed.count) }
            for (i, word) in marks.enumerated() where word != 0 { parsed[i] |= word }
        }
        self.parsed = parsed
        do throws(FileError) {
            // A session's runs, by hash then line: its last line ends it
            // (a run cut where two parts meet is two runs of one session).
            var runs = try MergedPairs(found.map { $0.runs[share.index] })
            var group: (hash: UInt64, line: UInt64)?
            while let run = try runs.next() {
                if let g = group, g.hash != run.first { try byLine.add(PairSorter.Pair(g.line, 0)) }
                group = (run.first, run.second)
            }
            if let group { try byLine.add(PairSorter.Pair(group.line, 0)) }
        } catch {
            throw .log(error)
        }
    }

    deinit { if let spooled { try? FileSystem.remove(spooled) } }

    /// Whether the share parses line `number` (1-based): a line of one of
    /// its sessions, or, for share 0, a line whose session is not known
    /// (over the length limit, or rejected before its session was read).
    /// Every line when the input is read whole. A blank line is parsed by none.
    @inline(__always)
    func parses(_ number: Int) -> Bool {
        guard share.count > 1 else { return true }
        let i = number - 1
        return i >> 6 < parsed.count && parsed[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    /// The next line (1-based) that ends a session, in ascending order; `nil` after the last.
    func next() throws(SessionStreamError) -> Int? {
        do throws(FileError) {
            return try byLine.next().map { Int($0.first) }
        } catch {
            throw .log(error)
        }
    }

    /// An NDJSON read error, named as the user named the input.
    func named(_ error: NDJSONReadError) -> NDJSONReadError {
        NDJSONReadError(path: path, problem: error.problem)
    }

    /// Reads the lines of the input that start in `range` (its byte
    /// offsets; `to: nil`, to the end): for each of `shares` shares,
    /// (session hash, last line) for each run of its lines of one session
    /// (``RecentRuns``: other sessions' lines between them do not end a run), and which
    /// lines it parses. A part that ends before the input's end stops reading there.
    private func skimPart(_ range: (from: Int64, to: Int64?), shares: Int) throws(SessionStreamError) -> SessionFirstRead.Part {
        let runs = (0..<shares).map { _ in PairSorter(chunk: chunk) }
        let reader: NDJSONLineReader
        do { reader = try NDJSONLineReader(path: readPath) } catch { throw .ndjson(named(error)) }
        var parser = EventLineParser()
        var hashes = SessionHashes()
        var recent = RecentRuns()
        // The lines each share parses, marked as they are read.
        var parsed = LineMarks(shares: shares)
        var lines = 0
        var offset: Int64 = 0
        let marks = shares > 1
        let end = range.to ?? .max
        do throws(NDJSONFailure<SkimStop>) {
            try reader.forEachLine { (line) throws(SkimStop) in
                let start = offset
                offset += Int64(line.overLimitBytes ?? line.bytes.count) + 1
                guard start < end else { throw .partEnds }
                lines = line.number
                guard start >= range.from, !line.isBlank else { return }
                guard line.overLimitBytes == nil else {
                    if marks { parsed.mark(line.number, NDJSONShare.unknownSessions) }
                    return
                }
                // The session as the parser reads it; a line it rejects ends no session.
                let hash: UInt64
                if let range = SessionSkim.sessionBytes(in: line.bytes) {
                    hash = hashes.hash(of: UnsafeRawBufferPointer(rebasing: line.bytes[range]))
                } else if let event = try? parser.parse(line.bytes) {
                    hash = hashes.hash(of: event.session)
                } else {
                    if marks { parsed.mark(line.number, NDJSONShare.unknownSessions) }
                    return
                }
                if marks { parsed.mark(line.number, NDJSONShare.index(of: hash, count: shares)) }
                guard let left = recent.meet(hash, line: line.number) else { return }
                do throws(FileError) {
                    try runs[NDJSONShare.index(of: left.first, count: shares)].add(left)
                } catch {
                    throw .log(error)
                }
            }
        } catch {
            switch error {
            case .read(let error): throw .ndjson(named(error))
            case .body(.log(let error)): throw .log(error)
            case .body(.partEnds): break
            }
        }
        do throws(FileError) {
            for pair in recent.remaining { try runs[NDJSONShare.index(of: pair.first, count: shares)].add(pair) }
        } catch {
            throw .log(error)
        }
        return SessionFirstRead.Part(runs: runs, parsed: parsed.bits, lines: range.to == nil ? lines : nil)
    }

    /// A bit for each line (1-based) of each share: the lines it parses.
    /// A struct, not a local function over an array, so that marking a line
    /// is a plain store (a captured array is checked for exclusive access
    /// at every mark).
    private struct LineMarks {
        var bits: [[UInt64]]

        init(shares: Int) { bits = Array(repeating: [], count: shares) }

        @inline(__always)
        mutating func mark(_ number: Int, _ share: Int) {
            let i = number - 1
            while bits[share].count <= i >> 6 { bits[share].append(0) }
            bits[share][i >> 6] |= 1 << UInt64(i & 63)
        }
    }

    /// Why a part's skim stops before the input's end.
    private enum SkimStop: Error {
        case log(FileError)
        /// The part's range ends: the next part skims the lines from here.
        case partEnds
    }

    /// Copies standard input to a new temporary file; its path.
    private static func spoolStandardInput() throws(SessionStreamError) -> String {
        let spool: TemporaryFile
        do { spool = try TemporaryFile(named: "navlog-stdin-", suffix: "") } catch { throw .log(error) }
        let input = InputDescriptor.standardInput()
        let chunk = ByteBuffer(capacity: 1 << 20)
        while true {
            let n: Int
            do { n = try input.read(into: chunk.base, count: chunk.capacity) } catch {
                try? FileSystem.remove(spool.path)
                throw .ndjson(NDJSONReadError(path: "-", operation: error.operation, errno: error.errno))
            }
            if n == 0 { return spool.path }
            do { try spool.write(UnsafeRawBufferPointer(start: chunk.base, count: n)) } catch {
                try? FileSystem.remove(spool.path)
                throw .log(error)
            }
        }
    }
}
