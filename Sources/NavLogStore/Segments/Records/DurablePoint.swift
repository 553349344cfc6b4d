/// Where a store's last durable commit ends (schemas/segment-store.md §6.1):
/// the one fact that tells a torn tail (bytes after it) from damage (bytes
/// at or before it), kept outside the segments in `COMMITTED`.
public struct DurablePoint: Hashable, Sendable {
    /// Incremented on every write; the slot written is `generation % 2`.
    public var generation: UInt64
    /// The last durable commit's number (0: none yet).
    public var commit: UInt64
    /// Its segment's number (0 when none).
    public var segment: Int
    /// The byte offset where its `NLCI` frame ends.
    public var end: Int64
    /// The whole length of that `NLCI` frame (0: none, or not recorded):
    /// where a reader starts the back-links of an open segment (§9).
    public var indexLength: Int

    public init(generation: UInt64 = 0, commit: UInt64 = 0, segment: Int = 0, end: Int64 = 0, indexLength: Int = 0) {
        self.generation = generation
        self.commit = commit
        self.segment = segment
        self.end = end
        self.indexLength = indexLength
    }

    /// The file's name in the store directory (§3).
    public static let fileName = "COMMITTED"
    /// `NLDP`.
    static let tag: UInt32 = 0x5044_4C4E
    static let slotBytes = 40
    static let fileBytes = 2 * slotBytes

    /// The slot's 40 bytes.
    func slot() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.slotBytes)
        out.appendLE(Self.tag)
        out.appendLE(generation)
        out.appendLE(commit)
        out.appendLE(UInt32(truncatingIfNeeded: segment))
        out.appendLE(end)
        out.appendLE(UInt32(truncatingIfNeeded: indexLength))
        out.appendLE(XXHash32.hash(out))
        return out
    }

    /// The point a slot holds, or `nil` when its tag or checksum does not hold.
    static func decode(slot bytes: ArraySlice<UInt8>) -> DurablePoint? {
        let bytes = Array(bytes)
        guard bytes.count == slotBytes, bytes.loadLE32(0) == tag,
              XXHash32.hash(bytes, range: 0..<(slotBytes - 4)) == bytes.loadLE32(slotBytes - 4) else { return nil }
        let end = Int64(bitPattern: bytes.loadLE64(24))
        guard end >= 0 else { return nil }
        return DurablePoint(generation: bytes.loadLE64(4), commit: bytes.loadLE64(12), segment: Int(bytes.loadLE32(20)), end: end,
                            indexLength: Int(bytes.loadLE32(32)))
    }
}

/// The `COMMITTED` file of a store: read (the valid slot of the higher
/// generation) and written (the other slot, synced).
final class DurablePointFile {
    /// What reading the file found.
    enum Found: Equatable {
        case point(DurablePoint)
        case missing
        /// Present, but no slot holds.
        case unreadable(String)
    }

    static func path(store: String) -> String { store + "/" + DurablePoint.fileName }

    /// Reads the durable point of the store at `store`.
    static func read(store: String) throws(FileError) -> Found {
        let path = path(store: store)
        guard OpenFile.exists(path) else { return .missing }
        let file = try OpenFile(path: path, mode: .read)
        defer { file.close() }
        let bytes = try file.read(count: DurablePoint.fileBytes, at: 0)
        let slots = [0, 1].compactMap { i -> DurablePoint? in
            let start = i * DurablePoint.slotBytes
            guard bytes.count >= start + DurablePoint.slotBytes else { return nil }
            return DurablePoint.decode(slot: bytes[start..<(start + DurablePoint.slotBytes)])
        }
        guard let best = slots.max(by: { $0.generation < $1.generation }) else {
            return .unreadable(bytes.count < DurablePoint.fileBytes ? "\(bytes.count) bytes, \(DurablePoint.fileBytes) expected"
                                                                    : "neither slot's checksum holds")
        }
        return .point(best)
    }

    private let file: OpenFile
    /// The point last written.
    private(set) var current: DurablePoint

    /// Opens the store's file for writing, at `current` (read before).
    init(store: String, current: DurablePoint) throws(FileError) {
        file = try OpenFile(path: Self.path(store: store), mode: .readWrite)
        self.current = current
    }

    deinit { file.close() }

    /// Writes the next generation's slot with `commit`, `segment`, `end` and the length of its index frame, and syncs it.
    func advance(commit: UInt64, segment: Int, end: Int64, indexLength: Int) throws(FileError) {
        let next = DurablePoint(generation: current.generation + 1, commit: commit, segment: segment, end: end, indexLength: indexLength)
        try file.write(next.slot(), at: Int64(Int(next.generation % 2) * DurablePoint.slotBytes))
        try file.sync()
        current = next
    }

    /// Writes the file whole (both slots: `point` and the generation before
    /// it holding the same point), synced with its directory entry: a new
    /// store's, or a repaired one's.
    static func create(store: String, point: DurablePoint) throws(FileError) {
        let path = path(store: store)
        let file = try OpenFile(path: path, mode: .readWrite)
        defer { file.close() }
        var point = point
        point.generation = max(point.generation, 1)
        var older = point
        older.generation = point.generation - 1
        var bytes = [UInt8](repeating: 0, count: DurablePoint.fileBytes)
        for slot in [older, point] {
            let at = Int(slot.generation % 2) * DurablePoint.slotBytes
            bytes.replaceSubrange(at..<(at + DurablePoint.slotBytes), with: slot.slot())
        }
        try file.truncate(to: 0)
        try file.write(bytes, at: 0)
        try file.sync()
        try OpenFile.syncDirectory(containing: path)
    }
}
