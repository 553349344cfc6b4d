#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Session summaries sorted by id (its UTF-8 bytes) in bounded memory, as
/// `navlog sessions` lists them.
///
/// ```swift
/// let sorter = SessionSummarySorter()
/// try sorter.add(summary)
/// while let summary = try sorter.next() { print(summary.id) }
/// ```
typealias SessionSummarySorter = ExternalSorter<SessionSummary>

extension ExternalSorter where Element == SessionSummary {
    convenience init(chunk: Int = 100_000) {
        self.init(chunk: chunk) { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }
}

/// A summary spilled as one line: the id in hex, events, first and last t,
/// and `v` with the app version in hex when there is one.
extension SessionSummary: SpillRecord {
    static func write(_ summaries: [SessionSummary], to file: UnsafeMutablePointer<FILE>) throws(FileError) {
        var line: [UInt8] = []
        for s in summaries {
            line.removeAll(keepingCapacity: true)
            Self.hex(Array(s.id.utf8), into: &line)
            line += Array("\t\(s.events)\t\(s.first.milliseconds)\t\(s.last.milliseconds)\t".utf8)
            if let version = s.appVersion {
                line.append(UInt8(ascii: "v"))
                Self.hex(Array(version.utf8), into: &line)
            }
            line.append(0x0A)
            guard fwrite(line, 1, line.count, file) == line.count else {
                throw FileError.io(path: "a temporary file", call: "fwrite", errno: errno)
            }
        }
    }

    static func read(from file: UnsafeMutablePointer<FILE>) throws(FileError) -> SessionSummary? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let n = getline(&buffer, &capacity, file)
        guard n > 0, let buffer else {
            if ferror(file) != 0 { throw FileError.io(path: "a temporary file", call: "getline", errno: errno) }
            return nil
        }
        let fields = UnsafeRawBufferPointer(start: buffer, count: n - 1).split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        guard fields.count == 5, let events = Int(String(decoding: fields[1], as: UTF8.self)),
              let first = Int64(String(decoding: fields[2], as: UTF8.self)), let last = Int64(String(decoding: fields[3], as: UTF8.self))
        else { throw FileError.io(path: "a temporary file", call: "read", errno: EIO) }
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
