// Sessions/: Logs, stores and NDJSON read as one stream of sessions, in parallel and in order, for analytics and listings.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sorts pairs of 64-bit numbers in bounded memory: up to ``chunk`` are
/// kept; past that, each sorted chunk goes to an anonymous temporary file
/// (`tmpfile`, gone when closed) and the files are merged as the pairs are
/// taken back.
///
/// ```swift
/// let sorter = PairSorter()
/// try sorter.add(PairSorter.Pair(7, 1))
/// while let pair = try sorter.next() { … }   // ascending, after the last add
/// ```
final class PairSorter {
    /// Two numbers, ordered by the first, then the second.
    struct Pair: Comparable {
        var first: UInt64
        var second: UInt64

        init(_ first: UInt64, _ second: UInt64) {
            self.first = first
            self.second = second
        }

        static func < (a: Pair, b: Pair) -> Bool { a.first < b.first || (a.first == b.first && a.second < b.second) }
    }

    /// Pairs kept in memory before a chunk is written out (16 bytes each).
    let chunk: Int
    private var held: [Pair] = []
    private var spills: [UnsafeMutablePointer<FILE>] = []
    /// While merging: each spill's next pair; `nil` once taken to its end.
    private var heads: [Pair?] = []
    private var merging = false
    private var nextHeld = 0

    init(chunk: Int = 1 << 20) { self.chunk = max(1, chunk) }

    deinit { for file in spills { fclose(file) } }

    func add(_ pair: Pair) throws(LogError) {
        precondition(!merging, "PairSorter.add after next")
        held.append(pair)
        if held.count >= chunk { try spill() }
    }

    /// The next pair in ascending order (the first call ends the adding); `nil` after the last.
    func next() throws(LogError) -> Pair? {
        if !merging {
            merging = true
            if spills.isEmpty {
                held.sort()
            } else {
                if !held.isEmpty { try spill() }
                for file in spills {
                    rewind(file)
                    heads.append(try Self.read(file))
                }
            }
        }
        if spills.isEmpty {
            guard nextHeld < held.count else {
                held = []
                return nil
            }
            nextHeld += 1
            return held[nextHeld - 1]
        }
        var best: Int?
        for (i, head) in heads.enumerated() {
            guard let head else { continue }
            if best.map({ head < heads[$0]! }) ?? true { best = i }
        }
        guard let best else { return nil }
        let pair = heads[best]
        heads[best] = try Self.read(spills[best])
        return pair
    }

    /// Writes the held pairs, sorted, to a new temporary file.
    private func spill() throws(LogError) {
        guard let file = tmpfile() else { throw LogError.io(path: "a temporary file", call: "tmpfile", errno: errno) }
        spills.append(file)
        held.sort()
        let written = held.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == held.count * MemoryLayout<Pair>.stride else {
            throw LogError.io(path: "a temporary file", call: "fwrite", errno: errno)
        }
        held.removeAll(keepingCapacity: true)
    }

    /// The next pair of a spill file; `nil` at its end.
    private static func read(_ file: UnsafeMutablePointer<FILE>) throws(LogError) -> Pair? {
        var pair = Pair(0, 0)
        let n = withUnsafeMutableBytes(of: &pair) { fread($0.baseAddress, 1, $0.count, file) }
        if n == MemoryLayout<Pair>.stride { return pair }
        if ferror(file) != 0 || n != 0 { throw LogError.io(path: "a temporary file", call: "fread", errno: ferror(file) != 0 ? errno : EIO) }
        return nil
    }
}
