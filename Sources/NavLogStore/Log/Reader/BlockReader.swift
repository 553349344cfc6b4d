// Log/Reader/: Reading a `.navlog` log: the walk of its frames, the open frame at its end, blocks, cursors, state at a point, bisect.

import NavLogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and decompresses one block's data frame, checking it against its
/// entry; the content stays in a reused buffer, so a scan allocates once.
final class BlockReader {
    /// The log read; a ``LogScanScratch`` points its reader at each log in turn.
    var file: OpenFile
    private let decoder: LZ4FrameDecoder
    private let compressed = ByteBuffer(capacity: 64 << 10)
    /// The last block's content (canonical lines, each ending in `\n`).
    let content = ByteBuffer(capacity: 256 << 10)
    /// The limit on a block's decompressed size.
    let maxContentBytes: Int
    @exclusivity(unchecked) private var parser = EventLineParser()
    /// Whether ``read(_:)`` counts its blocks on ``file`` (a scan's worker
    /// thread does not: the file's counter is not shared between threads).
    var countsOnFile = true
    /// Data frames this reader decompressed.
    @exclusivity(unchecked) private(set) var decompressed = 0

    init(file: OpenFile, maxContentBytes: Int = NavLogFormat.maxBlockContentBytes) throws(FileError) {
        self.file = file
        self.maxContentBytes = maxContentBytes
        do { decoder = try LZ4FrameDecoder() } catch {
            throw FileError(path: file.path, kind: .corrupt(.noDecoder(error)))
        }
    }

    /// Decompresses `entry`'s data frame into ``content``, verifying every
    /// LZ4 checksum, the size and the checksum the entry records.
    func read(_ entry: BlockEntry) throws(FileError) {
        content.removeAll()
        decompressed += 1
        if countsOnFile {
            file.blocksDecompressed += 1
            file.framesDecompressed.insert(entry.dataOffset)
        }
        func corrupt(_ fault: DataFrameFault) -> FileError {
            FileError.corrupt(file.path, .dataFrame(fault), offset: entry.dataOffset, frame: entry.dataFrameIndex,
                             seq: entry.firstSeq)
        }
        guard entry.contentSize <= maxContentBytes else {
            throw corrupt(.contentOverLimit(bytes: entry.contentSize, limit: maxContentBytes))
        }
        compressed.removeAll()
        guard compressed.reserve(entry.dataLength, limit: maxContentBytes * 2 + (1 << 20)) else {
            throw corrupt(.implausibleLength(entry.dataLength))
        }
        let n = try file.read(count: entry.dataLength, at: entry.dataOffset, appendingTo: compressed)
        guard n == entry.dataLength else { throw corrupt(.endsInside(read: n, length: entry.dataLength)) }
        let used: Int
        do throws(LZ4FrameError) {
            used = try decoder.decodeFrame(compressed.bytes, maxContentBytes: entry.contentSize, into: content)
        } catch {
            throw corrupt(.lz4(error))
        }
        guard used == entry.dataLength else { throw corrupt(.length(decoded: used, entry: entry.dataLength)) }
        guard content.count == entry.contentSize else {
            throw corrupt(.contentSize(decoded: content.count, entry: entry.contentSize))
        }
        let stored = compressed.bytes.loadLE32(entry.dataLength - 4)
        guard stored == entry.contentChecksum else {
            throw corrupt(.contentChecksum(stored: stored, entry: entry.contentChecksum))
        }
    }

    /// Parses a line of the last block read; a line that does not parse is damage.
    /// A line whose seq is outside the block's range is damage too (a log
    /// from a faulty writer): readers rely on the range to move on.
    func parse(_ line: UnsafeRawBufferPointer, of entry: BlockEntry) throws(FileError) -> Event {
        let event: Event
        do { event = try parser.parse(line) } catch {
            throw FileError.corrupt(file.path, .storedLine(error), offset: entry.dataOffset,
                                   frame: entry.dataFrameIndex, seq: entry.firstSeq)
        }
        guard event.seq >= entry.firstSeq, event.seq <= entry.lastSeq else {
            throw FileError.corrupt(file.path, .storedSeqOutside(seq: event.seq, first: entry.firstSeq, last: entry.lastSeq),
                                   offset: entry.dataOffset, frame: entry.dataFrameIndex, seq: entry.firstSeq)
        }
        return event
    }

    /// Throws when a block read to its end did not reach its last seq.
    func checkEnd(lastSeq: Int, of entry: BlockEntry) throws(FileError) {
        guard lastSeq >= entry.lastSeq else {
            throw FileError.corrupt(file.path, .blockEndsEarly(lastSeq: lastSeq, entryLastSeq: entry.lastSeq),
                                   offset: entry.dataOffset, frame: entry.dataFrameIndex, seq: entry.firstSeq)
        }
    }

    /// What can be kept of an open frame (schemas/navlog-format.md §6).
    struct OpenFrameSalvage {
        /// Bytes of the frame to keep: its header and the LZ4 blocks whose
        /// content ends on a line boundary (the whole frame when finished and valid).
        var frameBytes: Int
        /// Whether the kept bytes are the whole, finished frame.
        var finished: Bool
        /// Why less than every complete LZ4 block was kept, if that is the case.
        var problem: OpenFrameDamage?
    }

    /// Decodes an open frame into ``content``: its complete, verified LZ4
    /// blocks up to the last one whose content ends with `\n` — the same cut
    /// a writer's recovery makes, so that a following reader and a
    /// recovering writer agree on what the log holds.
    func readOpen(_ open: OpenFrame) throws(FileError) -> OpenFrameSalvage {
        content.removeAll()
        compressed.removeAll()
        guard compressed.reserve(open.completeLength, limit: maxContentBytes * 2 + (1 << 20)) else {
            return OpenFrameSalvage(frameBytes: 0, finished: false, problem: .implausible(bytes: open.completeLength))
        }
        try file.read(count: open.completeLength, at: open.offset, appendingTo: compressed)
        let bytes = compressed.bytes
        if open.finished {
            if (try? decoder.decodeFrame(bytes, maxContentBytes: maxContentBytes, into: content)) != nil,
               content.count > 0, content.base.load(fromByteOffset: content.count - 1, as: UInt8.self) == 0x0A {
                return OpenFrameSalvage(frameBytes: bytes.count, finished: true, problem: nil)
            }
            content.removeAll()
        }
        guard case .header(let descriptor) = LZ4FrameDescriptor.parse(bytes) else {
            return OpenFrameSalvage(frameBytes: 0, finished: false, problem: .headerUnreadable)
        }
        let ends = descriptor.blockEnds(in: bytes)
        let progress = decoder.decodePrefix(bytes, maxContentBytes: maxContentBytes, into: content, blockEnds: ends)
        var keep = 0
        var kept = 0
        for (i, produced) in progress.producedAt.enumerated() where produced > 0 {
            if content.base.load(fromByteOffset: produced - 1, as: UInt8.self) == 0x0A {
                keep = ends[i]
                kept = produced
            }
        }
        content.count = kept
        let problem = progress.error.map(OpenFrameDamage.lz4)
            ?? (kept < progress.producedAt.last ?? 0 ? .lastBlockInsideLine : nil)
        return OpenFrameSalvage(frameBytes: keep, finished: false, problem: problem)
    }

    /// The events an open frame keeps, as a reader hands them out and a
    /// recovering writer finishes the frame with them: what
    /// ``readOpen(_:)`` keeps (in ``content``), each line an event whose
    /// seq follows `lastSeq` and the line before, and of `session` when it
    /// is given. One line that is not, and none is kept.
    func readOpenEvents(_ open: OpenFrame, after lastSeq: Int, session: String?) throws(FileError) -> OpenFrameEvents {
        let salvage = try readOpen(open)
        var events: [Event] = []
        var problem: OpenFrameDamage?
        var parser = EventLineParser()
        try forEachLine(in: content.bytes) { (line, _) throws(FileError) in
            let previous = events.last?.seq ?? lastSeq
            guard let event = try? parser.parse(line) else { problem = .lineUnparsable; return false }
            guard event.seq > previous else { problem = .seqNotFollowing(seq: event.seq, previous: previous); return false }
            if let session, !SessionID.same(event.session, session) { problem = .otherSession(event.session); return false }
            events.append(event)
            return true
        }
        return OpenFrameEvents(salvage: salvage, events: problem == nil ? events : [], lineProblem: problem)
    }

    /// What ``readOpenEvents(_:after:session:)`` keeps of an open frame.
    struct OpenFrameEvents {
        var salvage: OpenFrameSalvage
        /// Its events (none when a line is not a valid continuation); their lines are ``content``.
        var events: [Event]
        /// The line that is not, if one is not.
        var lineProblem: OpenFrameDamage?
    }
}

/// Calls `body` with each line (without its `\n`) of `bytes`, and its offset.
@inline(__always)
func forEachLine(
    in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws(FileError) -> Bool
) throws(FileError) {
    guard let base = bytes.baseAddress else { return }
    var start = 0
    let n = bytes.count
    while start < n {
        let remaining = n - start
        let end: Int
        if let p = memchr(base + start, 0x0A, remaining) {
            end = base.distance(to: UnsafeRawPointer(p))
        } else {
            end = n
        }
        let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
        if try !body(line, start) { return }
        start = end + 1
    }
}

/// The offset of the first `\n` at or after `start` in `bytes`, or `bytes.count`.
@inline(__always)
func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
    guard let p = memchr(base + start, 0x0A, bytes.count - start) else { return bytes.count }
    return base.distance(to: UnsafeRawPointer(p))
}
