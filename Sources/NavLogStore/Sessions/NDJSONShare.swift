// Sessions/: Logs, stores and NDJSON read as one stream of sessions, in parallel and in order, for analytics and listings.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// One of ``count`` disjoint shares of an NDJSON input's sessions, so that
/// several threads can read one file at once, each the whole file but
/// parsing only its own sessions' lines. A line belongs to the share its
/// session's hash (XXH64 of the id, the hash ``SessionEnds`` groups by)
/// picks, so a session's lines all go to one share, in file order; a line
/// whose session is not known (over the length limit, or rejected before
/// its session could be read) belongs to share 0.
///
/// ```swift
/// let share = NDJSONShare(index: 1, count: 2)
/// var ids = SessionHashes()
/// if share.owns(hash: ids.hash(of: idBytes)) { /* parse the line */ }
/// ```
struct NDJSONShare: Hashable, Sendable {
    /// Which share, from 0.
    let index: Int
    /// How many shares the input is read in.
    let count: Int

    /// The whole input: every line.
    static let whole = NDJSONShare(index: 0, count: 1)

    /// Which of `count` shares has the lines of a session whose id hashes to `hash`.
    @inline(__always)
    static func index(of hash: UInt64, count: Int) -> Int { count == 1 ? 0 : Int(hash % UInt64(count)) }

    /// Whether the lines of a session whose id hashes to `hash` are this share's.
    @inline(__always)
    func owns(hash: UInt64) -> Bool { Self.index(of: hash, count: count) == index }

    /// Which share has the lines whose session is not known.
    static let unknownSessions = 0
}

/// What the thread reading one share of an NDJSON input is given: its
/// share, the first read it splits with the other shares' threads
/// (``SessionFirstRead``), and where its rejected lines go, to be noted as
/// one reader notes them (``RejectionOrder``). ``whole(_:onNote:)`` is the
/// input read by one thread, in one share.
struct NDJSONShareRead: Sendable {
    let share: NDJSONShare
    let firstRead: SessionFirstRead
    let rejections: RejectionOrder

    /// The whole input, read by one thread.
    static func whole(_ path: String, onNote: @escaping @Sendable (SessionStream.Note) -> Void) -> NDJSONShareRead {
        NDJSONShareRead(share: .whole, firstRead: .whole, rejections: RejectionOrder(path: path, shares: 1, onNote: onNote))
    }

    /// The share rejected line `number` (it has read up to it).
    func reject(_ number: Int, _ reason: EventParseError) { rejections.reject(share: share.index, line: number, reason) }

    /// The share has read every line up to `number`.
    func passed(_ number: Int) { rejections.passed(share: share.index, line: number) }

    /// The whole input's read has ended (``whole(_:onNote:)``): throws
    /// ``SessionStreamError/rejectedLines(path:count:)`` when lines were rejected.
    func endWhole() throws(SessionStreamError) {
        rejections.finish(share: share.index)
        try rejections.end()
    }
}

/// Session ids' hashes (XXH64), the last one kept: consecutive lines of
/// one session, the common case, hash their id once. An id of up to 16
/// bytes is kept as two words (compared in two instructions, where copying
/// it into an array cost more than its hash); a longer one is hashed each time.
struct SessionHashes {
    private var last: (UInt64, UInt64) = (0, 0)
    private var lastCount = -1
    private var lastHash: UInt64 = 0

    /// The hash of the id whose UTF-8 is `id`.
    @inline(__always)
    mutating func hash(of id: UnsafeRawBufferPointer) -> UInt64 {
        let n = id.count
        guard n <= 16 else { return XXHash64.hash(id) }
        var words: (UInt64, UInt64) = (0, 0)
        if n > 0 { withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: id.baseAddress!, byteCount: n) } }
        if n == lastCount, words == last { return lastHash }
        last = words
        lastCount = n
        lastHash = XXHash64.hash(id)
        return lastHash
    }

    /// The hash of `id`.
    mutating func hash(of id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { hash(of: UnsafeRawBufferPointer($0)) }
    }
}
