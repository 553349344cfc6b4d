#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// An export written as gzip part files in a new directory (`navlog export
/// … --output DIR`): in Hive-style day partitions `DIR/dt=YYYY-MM-DD/`, by
/// the UTC day of each row's `t`, or all in `DIR` itself. Each part is
/// `part-NNNNN.EXT.gz`, numbered from 00000 in its directory, a complete
/// file: one gzip member that starts with the header.
///
/// Rows arrive as frames (``appendFrame(day:rows:to:)``) made by
/// ``PartitionedRows``, whole rows of one event each. Memory stays bounded:
/// each day's rows wait in a buffer; a buffer of ``Limits/flushBytes`` is
/// compressed onto its day's open part, and when all buffers together pass
/// ``Limits/bufferedBytes`` the largest is. At most ``Limits/openParts``
/// parts are open at once: opening one more finishes the least recently
/// written (its day's later rows go to a new part). A part ends at the first
/// flush after it holds ``Limits/partBytes`` of uncompressed rows.
///
/// Thread-safe: every member is used under the lock.
public final class PartitionedOutput: @unchecked Sendable {
    /// The bounds of an export's part files and memory.
    public struct Limits: Sendable {
        /// Uncompressed bytes a part holds before its day's next rows start a new one.
        public var partBytes = 256 << 20
        /// The most parts open (gzip streams) at once.
        public var openParts = 16
        /// A day's buffer this full is compressed onto its part.
        public var flushBytes = 1 << 20
        /// All days' buffers together past this: the largest is compressed.
        public var bufferedBytes = 64 << 20
        public init() {}
    }

    /// What could not be written, as one line.
    public enum Failure: Error, CustomStringConvertible {
        /// `--output` names a directory that already holds something.
        case notEmpty(String)
        case io(FileError)

        public var description: String {
            switch self {
            case .notEmpty(let path): "\(path): the output directory is not empty: name a new or empty directory"
            case .io(let error): error.description
            }
        }
    }

    /// The day of rows not partitioned (all in the directory itself).
    public static let noDay = Int64.min

    private let directory: String
    private let suffix: String
    private let header: [UInt8]
    private let byDay: Bool
    private let limits: Limits
    private var buffers: [Int64: [UInt8]] = [:]
    private var buffered = 0
    private var open: [Int64: (file: GzipFile, used: Int)] = [:]
    private var uses = 0
    private var nextPart: [Int64: Int] = [:]
    private var failure: FileError?
    /// Held by ``write(frames:)`` and ``finish()``: every member above is used under it.
    private let lock = Locked(())

    /// Creates `directory` (its parent must exist), or takes it when it is
    /// empty. `fileExtension` is `csv` or `ndjson`; `header` starts every
    /// part; `byDay` says whether rows come in day partitions (then no rows
    /// make no part).
    public init(directory: String, fileExtension: String, header: [UInt8], byDay: Bool, limits: Limits = Limits()) throws(Failure) {
        self.directory = directory
        suffix = "." + fileExtension + ".gz"
        self.header = header
        self.byDay = byDay
        self.limits = limits
        let made: Bool
        do { made = try FileSystem.makeDirectory(directory) } catch { throw .io(error) }
        if !made {
            let names: [String]
            do { names = try DirectoryListing.names(in: directory) } catch { throw .io(error) }
            guard names.isEmpty else { throw .notEmpty(directory) }
        }
    }

    /// Appends one frame to `out`: the rows of one event and the day (days
    /// since 1970-01-01 UTC, or ``noDay``) whose partition they go to.
    public static func appendFrame(day: Int64, rows: [UInt8], to out: inout [UInt8]) {
        withUnsafeBytes(of: day.littleEndian) { out += $0 }
        withUnsafeBytes(of: UInt32(rows.count).littleEndian) { out += $0 }
        out += rows
    }

    /// Takes the frames of ``appendFrame(day:rows:to:)``, in order. After a
    /// failure nothing more is written; ``finish()`` throws it.
    public func write(frames: [UInt8]) {
        lock.withLock { _ in writeLocked(frames: frames) }
    }

    private func writeLocked(frames: [UInt8]) {
        guard failure == nil else { return }
        do throws(FileError) {
            var at = 0
            while at + 12 <= frames.count {
                let day = Self.load(Int64.self, frames, at), count = Int(Self.load(UInt32.self, frames, at + 8))
                let rows = frames[(at + 12)..<(at + 12 + count)]
                at += 12 + count
                buffers[day, default: []] += rows
                buffered += count
                if buffers[day]!.count >= limits.flushBytes, open[day] != nil || open.count < limits.openParts {
                    try flush(day)
                } else if buffered > limits.bufferedBytes, let largest = buffers.max(by: { $0.value.count < $1.value.count })?.key {
                    try flush(largest)
                }
            }
        } catch {
            failure = error
        }
    }

    /// Writes every buffered row and finishes every open part; not `byDay`,
    /// writes one part (the header alone) even when there were no rows.
    /// Returns the number of part files written.
    @discardableResult
    public func finish() throws(FileError) -> Int {
        try lock.withLock { _ throws(FileError) in try finishLocked() }
    }

    private func finishLocked() throws(FileError) -> Int {
        if let failure { throw failure }
        do throws(FileError) {
            for day in buffers.keys.sorted() { try flush(day) }
            if nextPart.isEmpty && !byDay { try flush(Self.noDay, evenIfEmpty: true) }
            for day in open.keys.sorted() { try open.removeValue(forKey: day)!.file.finish() }
        } catch {
            failure = error
            throw error
        }
        return nextPart.values.reduce(0, +)
    }

    /// Compresses the day's buffered rows onto its part, opening one first
    /// when it has none open or its part is full.
    private func flush(_ day: Int64, evenIfEmpty: Bool = false) throws(FileError) {
        let rows = buffers.removeValue(forKey: day) ?? []
        buffered -= rows.count
        guard !rows.isEmpty || evenIfEmpty else { return }
        if let part = open[day], part.file.uncompressedBytes >= limits.partBytes {
            open[day] = nil
            try part.file.finish()
        }
        uses += 1
        let file: GzipFile
        if let part = open[day] {
            file = part.file
        } else {
            if open.count >= limits.openParts, let oldest = open.min(by: { $0.value.used < $1.value.used })?.key {
                try open.removeValue(forKey: oldest)!.file.finish()
            }
            file = try newPart(day)
        }
        open[day] = (file, uses)
        try rows.withUnsafeBufferPointer { buffer throws(FileError) in try file.write(buffer) }
    }

    /// The day's next part file, its header written (its directory made for its first).
    private func newPart(_ day: Int64) throws(FileError) -> GzipFile {
        var folder = directory
        if day != Self.noDay {
            folder += "/dt=" + Timestamp(milliseconds: day * 86_400_000).rfc3339.prefix(10)
            if nextPart[day] == nil, try !FileSystem.makeDirectory(folder) { throw FileError.io(path: folder, call: "mkdir", errno: EEXIST) }
        }
        let number = nextPart[day, default: 0]
        nextPart[day] = number + 1
        let digits = String(number)
        let file = try GzipFile(creating: folder + "/part-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + suffix)
        try header.withUnsafeBufferPointer { buffer throws(FileError) in try file.write(buffer) }
        return file
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ at: Int) -> T {
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[at..<(at + MemoryLayout<T>.size)]) }
        return T(littleEndian: value)
    }
}

/// Rows of another ``ExportRows`` in frames for ``PartitionedOutput``: each
/// event's rows go to the partition of the UTC day of its `t` (the event's
/// own day, even when its session began the day before), or with `byDay`
/// false all to ``PartitionedOutput/noDay``.
public struct PartitionedRows<Rows: ExportRows>: ExportRows {
    private var rows: Rows
    private let byDay: Bool
    private var scratch: [UInt8] = []

    public init(_ rows: Rows, byDay: Bool) {
        self.rows = rows
        self.byDay = byDay
    }

    public mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        rows.write(event, view: view, to: &scratch)
        guard !scratch.isEmpty else { return }
        let ms = event.t.milliseconds
        let day = byDay ? (ms >= 0 ? ms / 86_400_000 : -((-ms + 86_399_999) / 86_400_000)) : PartitionedOutput.noDay
        PartitionedOutput.appendFrame(day: day, rows: scratch, to: &out)
    }
}
