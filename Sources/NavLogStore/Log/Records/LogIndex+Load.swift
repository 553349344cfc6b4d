extension LogIndex {
    /// How an index was obtained.
    enum Source: Sendable { case footer, walk }

    /// Loads the index of `file`: from the footer when the file ends with a
    /// valid trailer and footer that agree with each other (two reads), else
    /// by walking the frames (schemas/navlog-format.md §8).
    static func load(file: OpenFile, window: FileWindow) throws(FileError) -> (LogIndex, Source) {
        if let index = try fromFooter(file: file, window: window) { return (index, .footer) }
        return (try LogWalker(path: file.path, window: window).walk(), .walk)
    }

    /// The index from the footer, or `nil` when there is no usable footer.
    static func fromFooter(file: OpenFile, window: FileWindow) throws(FileError) -> LogIndex? {
        guard let footerRecord = try window.footerBehindTrailer(
                  preambleBytes: NavLogFormat.preambleBytes, maxBytes: NavLogFormat.maxFooterBytes,
                  tag: NavLogFormat.Tag.footer.rawValue),
              let footer = Footer(payload: footerRecord.payload),
              footer.footerOffset == footerRecord.offset, footer.isConsistent else { return nil }
        // The preamble still has to be right (and of a version this build reads).
        var index = LogIndex()
        index.fileSize = window.fileSize
        let preambleOnly = FileWindow(file: file, fileSize: Int64(NavLogFormat.preambleBytes))
        let head = try LogWalker(path: file.path, window: preambleOnly).walk()
        guard let header = head.header else { return nil }
        index.header = header
        index.entries = footer.entries
        index.checkpoints = footer.checkpoints
        index.eventCount = footer.eventCount
        index.bodyEnd = footerRecord.offset
        index.nextFrameIndex = footer.frameIndex
        index.footerOffset = footerRecord.offset
        return index
    }
}

extension Footer {
    /// Cheap checks that the footer's entries form a plausible index: in
    /// order, inside the body, seqs increasing, checkpoints on blocks.
    var isConsistent: Bool {
        var previousEnd = Int64(NavLogFormat.preambleBytes)
        var lastSeq = 0
        var events = 0
        var lastFrame = 1
        for (i, e) in entries.enumerated() {
            guard e.blockIndex == i, e.dataOffset >= previousEnd, e.dataFrameIndex > lastFrame,
                  e.firstSeq > lastSeq, e.contentSize <= NavLogFormat.maxBlockContentBytes
            else { return false }
            previousEnd = e.dataEnd + Int64(8 + NavLogFormat.blockEntryPayloadBytes)
            lastSeq = e.lastSeq
            lastFrame = e.dataFrameIndex + 1
            events += e.eventCount
        }
        guard previousEnd <= footerOffset, events == eventCount, frameIndex > lastFrame else { return false }
        var lastBlock = -1
        for ref in checkpoints {
            guard ref.blockIndex > lastBlock, ref.blockIndex < entries.count,
                  entries[ref.blockIndex].lastSeq == ref.seq,
                  ref.offset >= entries[ref.blockIndex].dataEnd,
                  ref.offset + Int64(ref.frameLength) <= footerOffset
            else { return false }
            lastBlock = ref.blockIndex
        }
        return true
    }
}
