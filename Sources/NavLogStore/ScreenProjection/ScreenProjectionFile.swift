#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore

/// Constants of the screen projection, format 1.1; each is defined in
/// `schemas/screen-projection.md` (the section is named beside it).
enum ScreenProjectionFormat {
    /// Format versions (§2); a reader ignores a file of another major version
    /// and reads every minor one (minor 0: blocks written before packing).
    static let majorVersion: UInt16 = 1
    static let minorVersion: UInt16 = 1
    /// A projection file's suffix (§1, §3).
    static let suffix = ".views"
    /// Record tags (§3): `NLVH`, `NLVB` (a block body, plain), `NLVP` (packed, §2.1).
    static let headerTag: UInt32 = 0x4856_4C4E
    static let blockTag: UInt32 = 0x4256_4C4E
    static let packedBlockTag: UInt32 = 0x5056_4C4E
    /// The most a packed block's frame may hold (§2.1, §3).
    static let packedLimit = 1 << 30
    /// A packed block's LZ4 frame (§2.1): linked 256 KB blocks, no block or content checksum (the record's covers
    /// the bytes stored, and the body is checked when read).
    static let packing = LZ4FrameSettings(blockSize: .max256KB, linkedBlocks: true, blockChecksums: false, contentChecksum: false)

    /// `00000001.views` for segment 1.
    static func fileName(_ segment: Int) -> String {
        String(SegmentFormat.segmentName(segment).dropLast(SegmentFormat.segmentSuffix.count)) + suffix
    }

    /// The segment number of a projection file name, or `nil` for any other name.
    static func segmentNumber(_ name: String) -> Int? {
        guard name.hasSuffix(suffix) else { return nil }
        return SegmentFormat.segmentNumber(String(name.dropLast(suffix.count)) + SegmentFormat.segmentSuffix)
    }

    /// The header record of segment `number`'s file (`minor`: tests write a file as minor 0 did).
    static func header(segment number: Int, minor: UInt16 = minorVersion) -> [UInt8] {
        var body: [UInt8] = []
        body.appendLE(majorVersion)
        body.appendLE(minor)
        body.appendLE(UInt32(truncatingIfNeeded: number))
        body.appendLE(UInt32(0))
        var out: [UInt8] = []
        SkippableFrame.appendRecord(tagValue: headerTag, body: body, to: &out)
        return out
    }

    /// A block record around an encoded block body: packed (`NLVP`) when
    /// that is shorter, else plain (`NLVB`), §2.1. Only `packs` false writes
    /// every block plain, as minor 0 did (tests of files written before packing).
    /// `file` names the file in an error (liblz4 failing: out of memory).
    static func appendBlock(_ body: [UInt8], to out: inout [UInt8], file: String, packs: Bool = true) throws(FileError) {
        let frame = packs ? try packed(body, file: file) : nil
        SkippableFrame.appendRecord(tagValue: frame == nil ? blockTag : packedBlockTag, body: frame ?? body, to: &out)
    }

    /// A block body packed (§2.1): its planes in an LZ4 frame; `nil` when that is not shorter.
    static func packed(_ body: [UInt8], file: String) throws(FileError) -> [UInt8]? {
        guard let planar = try? ProjectionPlanes.planar(body) else { return nil }
        let frame = ByteBuffer(capacity: body.count / 2)
        do throws(LZ4FrameError) {
            let encoder = try LZ4FrameEncoder(settings: packing)
            try planar.withUnsafeBytes { p in Result { () throws(LZ4FrameError) in try encoder.compressFrame(p, into: frame) } }.get()
        } catch { throw FileError(path: file, kind: .compression(error)) }
        return frame.count < body.count ? Array(frame.bytes) : nil
    }

    /// A packed block's body (§2.1) back: its frame undone, its planes interleaved.
    static func unpack(_ frame: [UInt8], decoder: LZ4FrameDecoder) throws(ScreenProjectionError) -> [UInt8] {
        let content = ByteBuffer(capacity: frame.count * 4)
        let used: Int
        do throws(LZ4FrameError) {
            used = try frame.withUnsafeBytes { p in
                Result { () throws(LZ4FrameError) in try decoder.decodeFrame(p, maxContentBytes: packedLimit, into: content) }
            }.get()
        } catch { throw .malformed("packed block: \(error)") }
        guard used == frame.count else { throw .malformed("\(frame.count - used) bytes after a packed block's frame") }
        return try ProjectionPlanes.interleaved(Array(content.bytes))
    }
}

/// A projection file as read (schemas/screen-projection.md §5): its blocks
/// in order up to the first one that is cut short or damaged, and what
/// stopped the read there, if anything.
struct ScreenProjectionFile {
    var blocks: [ScreenProjectionBlock] = []
    /// The byte offset of each block's record.
    var offsets: [Int64] = []
    /// What ended the read before the file's end: the byte offset and why.
    var problem: (offset: Int64, why: String)?
    /// Whether that is only a last record cut short (a crash while appending, §6): the projection is behind, not damaged.
    var cutShort = false

    /// Reads segment `number`'s projection file in `store`; `nil` when there
    /// is none. The blocks' `session.start` templates are parsed only `withTemplates`.
    static func read(store: String, segment number: Int, withTemplates: Bool = true) throws(FileError) -> ScreenProjectionFile? {
        switch try contents(store: store, segment: number) {
        case nil: return nil
        case .failure(let tooBig): return ScreenProjectionFile(problem: (0, tooBig.why))
        case .success(let bytes): return parse(bytes, segment: number, withTemplates: withTemplates)
        }
    }

    /// A file over the size a reader takes whole.
    struct TooBig: Error {
        var why: String
    }

    /// The bytes of segment `number`'s projection file; `nil` when there is none.
    static func contents(store: String, segment number: Int) throws(FileError) -> Result<[UInt8], TooBig>? {
        let path = store + "/" + ScreenProjectionFormat.fileName(number)
        guard OpenFile.exists(path) else { return nil }
        let file = try OpenFile(path: path, mode: .read)
        defer { file.close() }
        let size = try file.size()
        guard size <= Int64(Int32.max) else { return .failure(TooBig(why: "a file of \(size) bytes is over the limit")) }
        return .success(try file.read(count: Int(size), at: 0))
    }

    /// Parses a whole file's bytes: the header, then the block records'
    /// frames one after another, then each block record checked, unpacked
    /// and decoded on two threads. The blocks end at the first failure in
    /// file order, as if read one by one.
    static func parse(_ bytes: [UInt8], segment number: Int, withTemplates: Bool = true) -> ScreenProjectionFile {
        var file = ScreenProjectionFile()
        let header: [UInt8]
        var at = 0
        switch frame(bytes, at: 0, "header").flatMap({ payload in
            check(bytes, payload, [ScreenProjectionFormat.headerTag], "header").map { (payload.upperBound, $0.body) }
        }) {
        case .failure(let failure):
            (file.problem, file.cutShort) = ((0, failure.why), failure.cutShort)
            return file
        case .success(let record): (at, header) = record
        }
        guard header.count == 12, UInt16(header[0]) | UInt16(header[1]) << 8 == ScreenProjectionFormat.majorVersion,
              header.loadLE32(4) == UInt32(truncatingIfNeeded: number) else {
            file.problem = (0, "header: not a version \(ScreenProjectionFormat.majorVersion) projection of segment \(number)")
            return file
        }
        var records: [(offset: Int, payload: Range<Int>)] = []
        var ending: RecordFailure?
        while at < bytes.count {
            switch frame(bytes, at: at, "block") {
            case .failure(let failure): ending = failure
            case .success(let payload):
                records.append((at, payload))
                at = payload.upperBound
                continue
            }
            break
        }
        let found = records
        let blockTags = [ScreenProjectionFormat.blockTag, ScreenProjectionFormat.packedBlockTag]
        let decoded = ResultSlots<Result<ScreenProjectionBlock, RecordFailure>>(count: found.count)
        let workers = SessionStream.defaultWorkers
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, found.count))) { worker in
            var decoder: LZ4FrameDecoder?
            var templates = SessionStartTemplates()
            for i in stride(from: worker, to: found.count, by: workers) {
                decoded.set(i, check(bytes, found[i].payload, blockTags, "block").flatMap { record in
                    Result { () throws(ScreenProjectionError) in
                        var body = record.body
                        if record.tag == ScreenProjectionFormat.packedBlockTag {
                            if decoder == nil { decoder = try? LZ4FrameDecoder() }
                            guard let decoder else { throw .malformed("packed block: no LZ4 decoder") }
                            body = try ScreenProjectionFormat.unpack(body, decoder: decoder)
                        }
                        return try ScreenProjectionBlock(decoding: body, withTemplates: withTemplates, templates: &templates)
                    }.mapError { RecordFailure(why: $0.description, inBlock: true) }
                })
            }
        }
        for i in found.indices {
            switch decoded.value(i) {
            case .success(let block)?:
                file.blocks.append(block)
                file.offsets.append(Int64(found[i].offset))
            case .failure(let failure)?:
                file.problem = (Int64(found[i].offset), failure.why)
                // Cut short when the records read one by one reach a last one cut short (a block not read is no record's failure).
                file.cutShort = failure.inBlock && (ending?.cutShort ?? false) && !found.indices.suffix(from: i + 1).contains { j in
                    if case .failure(let later)? = decoded.value(j) { return !later.inBlock }
                    return false
                }
                return file
            case nil:
                return file
            }
        }
        if let ending { (file.problem, file.cutShort) = ((Int64(at), ending.why), ending.cutShort) }
        return file
    }

    /// Why a record is not read: its frame, checksum or tag, or (`inBlock`) the block in it.
    private struct RecordFailure: Error {
        var why: String
        /// A last record cut short (a crash while appending).
        var cutShort = false
        var inBlock = false
    }

    /// The payload (tag … checksum) of the record at `at`, its frame checked.
    private static func frame(_ bytes: [UInt8], at: Int, _ name: String) -> Result<Range<Int>, RecordFailure> {
        guard bytes.count - at >= 8 else { return .failure(RecordFailure(why: "\(name): cut short (\(bytes.count - at) bytes)", cutShort: true)) }
        guard bytes.loadLE32(at) == NavLogFormat.navlogSkippableMagic else { return .failure(RecordFailure(why: "\(name): not a navlog record")) }
        let size = Int(bytes.loadLE32(at + 4))
        guard size <= bytes.count - at - 8 else {
            return .failure(RecordFailure(why: "\(name): cut short (\(bytes.count - at - 8) of \(size) bytes)", cutShort: true))
        }
        return .success((at + 8)..<(at + 8 + size))
    }

    /// A record's tag (one of `expected`) and body, its checksum checked; the body copied once.
    private static func check(_ bytes: [UInt8], _ payload: Range<Int>, _ expected: [UInt32],
                              _ name: String) -> Result<(tag: UInt32, body: [UInt8]), RecordFailure> {
        let checked = bytes.withUnsafeBytes { SkippableFrame.checkRecord(UnsafeRawBufferPointer(rebasing: $0[payload])) }
        switch checked {
        case .failure(let why): return .failure(RecordFailure(why: "\(name): \(why.description)"))
        case .success(let tag) where !expected.contains(tag): return .failure(RecordFailure(why: "\(name): tag \(hex(tag)), not the \(name)'s"))
        case .success(let tag): return .success((tag, Array(bytes[(payload.lowerBound + 4)..<(payload.upperBound - 4)])))
        }
    }

    /// For a file read without its templates: parses each block's
    /// `session.start` templates in turn, holding one block's at a time, and
    /// ends the file at the first block whose templates do not parse, as
    /// reading it with them would have.
    mutating func checkTemplates() {
        for k in blocks.indices {
            do throws(ScreenProjectionError) { _ = try ScreenProjectionBlock(decoding: blocks[k].bytes, withTemplates: true) } catch {
                problem = (offsets[k], error.description)
                cutShort = false
                blocks.removeSubrange(k...)
                offsets.removeSubrange(k...)
                return
            }
        }
    }

    /// Writes a projection file whole: to `NAME.tmp`, synced, renamed over
    /// `NAME`, the directory synced (§1).
    static func write(store: String, segment number: Int, bytes: [UInt8]) throws(FileError) {
        try WholeFile.replace(store + "/" + ScreenProjectionFormat.fileName(number), with: bytes)
    }

    /// The bytes of segment `number`'s file holding `blocks` (bodies), as the
    /// writer writes them (`packs` false: as minor 0 did, for tests).
    static func bytes(segment number: Int, blocks: some Sequence<[UInt8]>, packs: Bool = true) throws(FileError) -> [UInt8] {
        var bytes = ScreenProjectionFormat.header(segment: number, minor: packs ? ScreenProjectionFormat.minorVersion : 0)
        for body in blocks { try ScreenProjectionFormat.appendBlock(body, to: &bytes, file: ScreenProjectionFormat.fileName(number), packs: packs) }
        return bytes
    }
}
