#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Sorts session summaries by id (its UTF-8 bytes) in bounded memory:
/// up to ``chunk`` are kept; past that, each sorted chunk goes to an
/// anonymous temporary file (`tmpfile`, gone when closed) and the files are
/// merged at the end.
///
/// ```swift
/// let sorter = SessionSummarySorter()
/// try sorter.add(summary)
/// try sorter.finish { print($0.id) }
/// ```
public final class SessionSummarySorter {
    /// Summaries kept in memory before a chunk is written out.
    public let chunk: Int
    private var held: [SessionSummary] = []
    private var spills: [UnsafeMutablePointer<FILE>] = []

    public init(chunk: Int = 100_000) { self.chunk = max(1, chunk) }

    deinit { for file in spills { fclose(file) } }

    public func add(_ summary: SessionSummary) throws(LogError) {
        held.append(summary)
        if held.count >= chunk { try spill() }
    }

    /// Calls `body` with every summary added, sorted by id.
    public func finish(_ body: (SessionSummary) -> Void) throws(LogError) {
        if spills.isEmpty {
            held.sort(by: Self.before)
            held.forEach(body)
            held.removeAll()
            return
        }
        if !held.isEmpty { try spill() }
        var heads: [SessionSummary?] = []
        for file in spills {
            rewind(file)
            heads.append(try Self.read(file))
        }
        while true {
            var best: Int?
            for (i, head) in heads.enumerated() {
                guard let head else { continue }
                if best.map({ Self.before(head, heads[$0]!) }) ?? true { best = i }
            }
            guard let best else { return }
            body(heads[best]!)
            heads[best] = try Self.read(spills[best])
        }
    }

    private static func before(_ a: SessionSummary, _ b: SessionSummary) -> Bool {
        a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// Writes the held summaries, sorted, to a new temporary file.
    private func spill() throws(LogError) {
        guard let file = tmpfile() else { throw LogError.io(path: "a temporary file", call: "tmpfile", errno: errno) }
        spills.append(file)
        held.sort(by: Self.before)
        var line: [UInt8] = []
        for s in held {
            line.removeAll(keepingCapacity: true)
            Self.hex(Array(s.id.utf8), into: &line)
            line += Array("\t\(s.events)\t\(s.first.milliseconds)\t\(s.last.milliseconds)\t".utf8)
            if let version = s.appVersion {
                line.append(UInt8(ascii: "v"))
                Self.hex(Array(version.utf8), into: &line)
            }
            line.append(0x0A)
            guard fwrite(line, 1, line.count, file) == line.count else {
                throw LogError.io(path: "a temporary file", call: "fwrite", errno: errno)
            }
        }
        held.removeAll(keepingCapacity: true)
    }

    /// The next summary of a spill file; `nil` at its end.
    private static func read(_ file: UnsafeMutablePointer<FILE>) throws(LogError) -> SessionSummary? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let n = getline(&buffer, &capacity, file)
        guard n > 0, let buffer else {
            if ferror(file) != 0 { throw LogError.io(path: "a temporary file", call: "getline", errno: errno) }
            return nil
        }
        let fields = UnsafeRawBufferPointer(start: buffer, count: n - 1).split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        guard fields.count == 5, let events = Int(String(decoding: fields[1], as: UTF8.self)),
              let first = Int64(String(decoding: fields[2], as: UTF8.self)), let last = Int64(String(decoding: fields[3], as: UTF8.self))
        else { throw LogError.io(path: "a temporary file", call: "read", errno: EIO) }
        var summary = SessionSummary(id: String(decoding: unhex(fields[0]), as: UTF8.self))
        summary.events = events
        summary.first = Timestamp(milliseconds: first)
        summary.last = Timestamp(milliseconds: last)
        if fields[4].first == UInt8(ascii: "v") { summary.appVersion = String(decoding: unhex(fields[4].dropFirst()), as: UTF8.self) }
        return summary
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ bytes: [UInt8], into out: inout [UInt8]) {
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
    }

    private static func unhex(_ text: Slice<UnsafeRawBufferPointer>) -> [UInt8] {
        func value(_ c: UInt8) -> UInt8 { c >= UInt8(ascii: "a") ? c - UInt8(ascii: "a") + 10 : c &- UInt8(ascii: "0") }
        var out: [UInt8] = []
        var i = text.startIndex
        while i + 1 < text.endIndex {
            out.append(value(text[i]) << 4 | value(text[i + 1]))
            i += 2
        }
        return out
    }
}
