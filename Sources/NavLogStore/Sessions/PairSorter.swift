// Sessions/: Logs, stores and NDJSON read as one stream of sessions, in parallel and in order, for analytics and listings.

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
