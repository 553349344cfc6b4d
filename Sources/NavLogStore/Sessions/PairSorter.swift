#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Pairs of 64-bit numbers sorted in bounded memory (an NDJSON file's
/// session runs by hash, then their last lines by line number).
///
/// ```swift
/// let sorter = PairSorter(chunk: 1 << 20)
/// try sorter.add(PairSorter.Pair(7, 1))
/// while let pair = try sorter.next() { … }   // ascending, after the last add
/// ```
typealias PairSorter = ExternalSorter<PairKey>

extension ExternalSorter where Element == PairKey {
    typealias Pair = PairKey

    /// Chunks sorted by ``PairKey/radixSort(_:)``.
    convenience init(chunk: Int) { self.init(chunk: chunk, by: <, sortChunk: PairKey.radixSort) }
}

/// Two numbers, ordered by the first, then the second; spilled as their 16 bytes.
struct PairKey: Comparable, SpillRecord {
    var first: UInt64
    var second: UInt64

    init(_ first: UInt64, _ second: UInt64) {
        self.first = first
        self.second = second
    }

    static func < (a: PairKey, b: PairKey) -> Bool { a.first < b.first || (a.first == b.first && a.second < b.second) }

    static func write(_ pairs: [PairKey], to file: UnsafeMutablePointer<FILE>) throws(FileError) {
        let written = pairs.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == pairs.count * MemoryLayout<PairKey>.stride else {
            throw FileError.io(path: "a temporary file", call: "fwrite", errno: errno)
        }
    }

    static func read(from file: UnsafeMutablePointer<FILE>) throws(FileError) -> PairKey? {
        var pair = PairKey(0, 0)
        let n = withUnsafeMutableBytes(of: &pair) { fread($0.baseAddress, 1, $0.count, file) }
        if n == MemoryLayout<PairKey>.stride { return pair }
        if ferror(file) != 0 || n != 0 { throw FileError.io(path: "a temporary file", call: "fread", errno: ferror(file) != 0 ? errno : EIO) }
        return nil
    }
}

extension PairKey {
    /// Bits of a key sorted by one pass of ``radixSort(_:)``.
    private static let digitBits = 11

    /// Sorts `pairs` as `sort()` does (by `first`, then `second`): a stable
    /// least-significant-digit radix sort, 11 bits a pass, `second`'s digits
    /// first, over only the bits some pair uses (a pass whose digit is the
    /// same for every pair moves nothing and is skipped). A chunk of a first
    /// read's runs (hash, line) takes 8 passes, two thirds of `sort()`'s
    /// instructions; its ends (line, 0) take 2.
    /// - Complexity: O(n) for each of at most 12 passes.
    static func radixSort(_ pairs: inout [PairKey]) {
        let n = pairs.count
        guard n > 1 else { return }
        var used = (first: UInt64(0), second: UInt64(0))
        for pair in pairs {
            used.first |= pair.first
            used.second |= pair.second
        }
        var spare = [PairKey](repeating: PairKey(0, 0), count: n)
        var counts = [Int](repeating: 0, count: 1 << digitBits)
        var sortedInSpare = false
        for (ofFirst, bits) in [(false, used.second), (true, used.first)] {
            var shift = 0
            while shift < 64, bits >> UInt64(shift) != 0 {
                let moved = sortedInSpare
                    ? pass(from: spare, to: &pairs, shift: shift, ofFirst: ofFirst, counts: &counts)
                    : pass(from: pairs, to: &spare, shift: shift, ofFirst: ofFirst, counts: &counts)
                if moved { sortedInSpare.toggle() }
                shift += digitBits
            }
        }
        if sortedInSpare { swap(&pairs, &spare) }
    }

    /// One pass of ``radixSort(_:)``: `from`'s pairs into `to`, stably, by
    /// the digit at `shift` of `first` (or `second`); `false`, with `to`
    /// untouched, when every pair has the same digit there.
    private static func pass(from: [PairKey], to: inout [PairKey], shift: Int, ofFirst: Bool,
                             counts: inout [Int]) -> Bool {
        let mask = UInt64(1 << digitBits - 1)
        let s = UInt64(shift)
        @inline(__always) func digit(_ pair: PairKey) -> Int { Int(truncatingIfNeeded: ((ofFirst ? pair.first : pair.second) >> s) & mask) }
        return from.withUnsafeBufferPointer { from in
            counts.withUnsafeMutableBufferPointer { counts in
                counts.update(repeating: 0)
                for pair in from { counts[digit(pair)] += 1 }
                if counts[digit(from[0])] == from.count { return false }
                var offset = 0
                for d in counts.indices {
                    let count = counts[d]
                    counts[d] = offset
                    offset += count
                }
                to.withUnsafeMutableBufferPointer { to in
                    for pair in from {
                        let d = digit(pair)
                        to[counts[d]] = pair
                        counts[d] += 1
                    }
                }
                return true
            }
        }
    }
}
