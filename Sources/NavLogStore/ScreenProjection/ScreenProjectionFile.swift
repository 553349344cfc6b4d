#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore

/// Constants of the screen projection, format 1.0; each is defined in
/// `schemas/screen-projection.md` (the section is named beside it).
enum ScreenProjectionFormat {
    /// Format versions (§2); a reader ignores a file of another major version.
    static let majorVersion: UInt16 = 1
    static let minorVersion: UInt16 = 0
    /// A projection file's suffix (§1, §3).
    static let suffix = ".views"
    /// Record tags (§3): `NLVH`, `NLVB`.
    static let headerTag: UInt32 = 0x4856_4C4E
    static let blockTag: UInt32 = 0x4256_4C4E

    /// `00000001.views` for segment 1.
    static func fileName(_ segment: Int) -> String {
        String(SegmentFormat.segmentName(segment).dropLast(SegmentFormat.segmentSuffix.count)) + suffix
    }

    /// The segment number of a projection file name, or `nil` for any other name.
    static func segmentNumber(_ name: String) -> Int? {
        guard name.hasSuffix(suffix) else { return nil }
        return SegmentFormat.segmentNumber(String(name.dropLast(suffix.count)) + SegmentFormat.segmentSuffix)
    }

    /// The header record of segment `number`'s file.
    static func header(segment number: Int) -> [UInt8] {
        var body: [UInt8] = []
        body.appendLE(majorVersion)
        body.appendLE(minorVersion)
        body.appendLE(UInt32(truncatingIfNeeded: number))
        body.appendLE(UInt32(0))
        var out: [UInt8] = []
        SkippableFrame.appendRecord(tagValue: headerTag, body: body, to: &out)
        return out
    }

    /// A block record around an encoded block body.
    static func appendBlock(_ body: [UInt8], to out: inout [UInt8]) {
        SkippableFrame.appendRecord(tagValue: blockTag, body: body, to: &out)
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
    static func read(store: String, segment number: Int, withTemplates: Bool = true) throws(LogError) -> ScreenProjectionFile? {
        let path = store + "/" + ScreenProjectionFormat.fileName(number)
        guard LogFile.exists(path) else { return nil }
        let file = try LogFile(path: path, mode: .read)
        defer { file.close() }
        let size = try file.size()
        guard size <= Int64(Int32.max) else { return ScreenProjectionFile(problem: (0, "a file of \(size) bytes is over the limit")) }
        return parse(try file.read(count: Int(size), at: 0), segment: number, withTemplates: withTemplates)
    }

    /// Parses a whole file's bytes.
    static func parse(_ bytes: [UInt8], segment number: Int, withTemplates: Bool = true) -> ScreenProjectionFile {
        var file = ScreenProjectionFile()
        var at = 0
        /// The next record's payload (tag … checksum), checked; `nil` with `file.problem` set.
        func record(_ expected: UInt32) -> [UInt8]? {
            let name = expected == ScreenProjectionFormat.headerTag ? "header" : "block"
            func fail(_ why: String) -> [UInt8]? {
                file.problem = (Int64(at), "\(name): \(why)")
                return nil
            }
            guard bytes.count - at >= 8 else {
                file.cutShort = true
                return fail("cut short (\(bytes.count - at) bytes)")
            }
            guard bytes.loadLE32(at) == NavLogFormat.navlogSkippableMagic else { return fail("not a navlog record") }
            let size = Int(bytes.loadLE32(at + 4))
            guard size <= bytes.count - at - 8 else {
                file.cutShort = true
                return fail("cut short (\(bytes.count - at - 8) of \(size) bytes)")
            }
            let payload = (at + 8)..<(at + 8 + size)
            let checked = bytes.withUnsafeBytes { SkippableFrame.checkRecord(UnsafeRawBufferPointer(rebasing: $0[payload])) }
            switch checked {
            case .failure(let why): return fail(why.description)
            case .success(let tag) where tag != expected: return fail("tag \(hex(tag)), not the \(name)'s")
            case .success: break
            }
            at += 8 + size
            // The body alone, copied once.
            return Array(bytes[(payload.lowerBound + 4)..<(payload.upperBound - 4)])
        }
        guard let header = record(ScreenProjectionFormat.headerTag) else { return file }
        guard header.count == 12, UInt16(header[0]) | UInt16(header[1]) << 8 == ScreenProjectionFormat.majorVersion,
              header.loadLE32(4) == UInt32(truncatingIfNeeded: number) else {
            file.problem = (0, "header: not a version \(ScreenProjectionFormat.majorVersion) projection of segment \(number)")
            return file
        }
        // The records one after another (their checksums), then their bodies decoded on two threads.
        var bodies: [(offset: Int, body: [UInt8])] = []
        while at < bytes.count {
            let offset = at
            guard let body = record(ScreenProjectionFormat.blockTag) else { break }
            bodies.append((offset, body))
        }
        let records = bodies
        let decoded = ResultSlots<Result<ScreenProjectionBlock, ScreenProjectionError>>(count: records.count)
        let workers = SessionStream.defaultWorkers
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, records.count))) { worker in
            for i in stride(from: worker, to: records.count, by: workers) {
                decoded.set(i, Result { () throws(ScreenProjectionError) in try ScreenProjectionBlock(decoding: records[i].body, withTemplates: withTemplates) })
            }
        }
        for i in bodies.indices {
            switch decoded.value(i) {
            case .success(let block)?:
                file.blocks.append(block)
                file.offsets.append(Int64(bodies[i].offset))
            case .failure(let error)?:
                file.problem = (Int64(bodies[i].offset), error.description)
                return file
            case nil:
                return file
            }
        }
        return file
    }

    /// Writes a projection file whole: to `NAME.tmp`, synced, renamed over
    /// `NAME`, the directory synced (§1).
    static func write(store: String, segment number: Int, blocks: [[UInt8]]) throws(LogError) {
        let path = store + "/" + ScreenProjectionFormat.fileName(number)
        var bytes = ScreenProjectionFormat.header(segment: number)
        for body in blocks { ScreenProjectionFormat.appendBlock(body, to: &bytes) }
        try WholeFile.replace(path, with: bytes)
    }
}
