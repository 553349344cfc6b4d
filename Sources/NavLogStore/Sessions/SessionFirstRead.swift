import NavLogCore

/// The first read of an NDJSON input (``SessionEnds``), split between the
/// threads that read it in shares (``NDJSONShare``): part `p` of ``parts``
/// skims the lines that start in the `p`-th of ``parts`` equal byte ranges
/// of the input (the last part to its end), for every share at once, so
/// that each line is skimmed by one thread, not by every one. Each share's
/// ends are then made from every part's runs of it (``SessionEnds``).
///
/// ```swift
/// let first = SessionFirstRead(parts: 2, bytes: size)
/// // on thread p, for share p of 2:
/// let ends = try SessionEnds(path: path, share: NDJSONShare(index: p, count: 2), firstRead: first)
/// ```
///
/// Every part must be read, each on a thread of its own: a part waits for
/// the others (``read(part:_:)``).
final class SessionFirstRead: Sendable {
    /// What one part found: for each share, its runs (session hash, last
    /// line of the run) and a bit for each line it parses; and the input's
    /// lines, when the part read to its end.
    final class Part: @unchecked Sendable {
        let runs: [PairSorter]
        let parsed: [[UInt64]]
        let lines: Int?
        init(runs: [PairSorter], parsed: [[UInt64]], lines: Int?) {
            self.runs = runs
            self.parsed = parsed
            self.lines = lines
        }
    }

    /// How many parts the input is skimmed in.
    let parts: Int
    /// The input's size in bytes when the read began (the parts' ranges are cut from it).
    let bytes: Int64
    private let found: Locked<[Result<Part, SessionStreamError>?]>

    init(parts: Int, bytes: Int64) {
        self.parts = max(1, parts)
        self.bytes = bytes
        found = Locked(Array(repeating: nil, count: max(1, parts)))
    }

    /// The input read whole by one thread.
    static var whole: SessionFirstRead { SessionFirstRead(parts: 1, bytes: .max) }

    /// The bytes where part `part`'s lines start: from its lower bound, up
    /// to its upper bound (`nil`: to the end of the input).
    func range(of part: Int) -> (from: Int64, to: Int64?) {
        let from = part == 0 ? 0 : bytes / Int64(parts) * Int64(part)
        return (from, part == parts - 1 ? nil : bytes / Int64(parts) * Int64(part + 1))
    }

    /// Runs `skim` as part `part`, then waits for every other part: every
    /// part's findings, in part order, or the first part's failure.
    func read(part: Int, _ skim: () throws(SessionStreamError) -> Part) throws(SessionStreamError) -> [Part] {
        let result: Result<Part, SessionStreamError>
        do throws(SessionStreamError) { result = .success(try skim()) } catch { result = .failure(error) }
        found.withLock { $0[part] = result }
        found.broadcast()
        let all = found.withLock(when: { $0.allSatisfy { $0 != nil } }) { $0 }
        var parts: [Part] = []
        for result in all {
            switch result! {
            case .success(let part): parts.append(part)
            case .failure(let error): throw error
            }
        }
        return parts
    }
}

/// Several sorted streams of pairs (``PairSorter``s) read as one, in order.
struct MergedPairs {
    private let streams: [PairSorter]
    private var heads: [PairKey?]

    init(_ streams: [PairSorter]) throws(FileError) {
        self.streams = streams
        var heads: [PairKey?] = []
        for stream in streams { heads.append(try stream.next()) }
        self.heads = heads
    }

    /// The least pair left, or `nil` after the last.
    mutating func next() throws(FileError) -> PairKey? {
        var least: Int?
        for i in heads.indices {
            guard let head = heads[i] else { continue }
            if least.map({ head < heads[$0]! }) ?? true { least = i }
        }
        guard let least else { return nil }
        let pair = heads[least]
        heads[least] = try streams[least].next()
        return pair
    }
}
