/// A format's unit grammar (schemas/format-layer.md §2, §3): what each frame
/// met by the one walk (``FileWindow/walk(from:frame:_:)``) is to the unit
/// under way, and whether the walk goes on. A reading grammar stops at the
/// first problem; a verifying one notes it and goes on.
protocol UnitGrammar {
    /// Meets the frame at `offset`, the file's frame number `frame`.
    mutating func meet(_ met: FrameMet, at offset: Int64, frame: Int) throws(FileError) -> WalkStep
}

/// One frame as the walk meets it (``FrameProbe``, with navlog records told
/// from other programs' skippable frames).
enum FrameMet {
    case endOfFile
    case truncated(Truncation)
    case invalid(FrameFault)
    /// An LZ4 (data) frame, whole or running past the end of the file.
    case data(LZ4FrameExtent)
    case record(WalkedRecord)
    case foreign(magic: UInt32, payloadSize: Int)
}

/// What the walk does after a frame.
enum WalkStep {
    /// Goes on with the next frame (stops when this one's end is not known).
    case next
    /// Goes on at `offset`, frame number `frame` (after reading ahead, or resynchronising).
    case resume(at: Int64, frame: Int)
    case stop
}

/// A navlog record lying wholly within the file; its bytes are read when asked for.
struct WalkedRecord {
    let window: FileWindow
    let offset: Int64
    let payloadSize: Int

    var end: Int64 { offset + 8 + Int64(payloadSize) }

    /// The tag, the payload's first 4 bytes (the payload must hold them).
    func tag() throws(FileError) -> UInt32 { try window.view(at: offset + 8, count: 4).loadLE32(0) }

    /// The payload, valid until the window's next read.
    func payload() throws(FileError) -> UnsafeRawBufferPointer { try window.view(at: offset + 8, count: payloadSize) }
}

extension FileWindow {
    /// Walks the frames from `offset` (frame number `frame`) to the end of
    /// the file or until `grammar` stops.
    ///
    /// - Complexity: O(frames walked) probes; nothing is decompressed here.
    func walk<Grammar: UnitGrammar>(from offset: Int64, frame: Int, _ grammar: inout Grammar) throws(FileError) {
        var offset = offset, frame = frame
        while true {
            let met: FrameMet
            var end: Int64?
            switch try probe(at: offset) {
            case .endOfFile: met = .endOfFile
            case .truncated(let why): met = .truncated(why)
            case .invalid(let why): met = .invalid(why)
            case .lz4(let extent):
                met = .data(extent)
                end = extent.length.map { offset + Int64($0) }
            case .skippable(let magic, let size):
                met = magic == NavLogFormat.navlogSkippableMagic
                    ? .record(WalkedRecord(window: self, offset: offset, payloadSize: size))
                    : .foreign(magic: magic, payloadSize: size)
                end = offset + 8 + Int64(size)
            }
            switch try grammar.meet(met, at: offset, frame: frame) {
            case .stop: return
            case .next:
                guard let end else { return }
                (offset, frame) = (end, frame + 1)
            case .resume(let at, let number):
                (offset, frame) = (at, number)
            }
            if case .endOfFile = met { return }
        }
    }
}
