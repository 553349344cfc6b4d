/// Opens a sealed segment from its trailer and footer (schemas/segment-store.md
/// §5.4, §9): two reads and the commit indexes, no walk.
struct SegmentFooterReader {
    let window: FileWindow

    /// The commits a valid trailer and footer list, and the end of the last;
    /// `nil` when there is no valid trailer, footer, or listed index (the
    /// caller then walks).
    func commits(previousCommit: UInt64) throws(LogError) -> (commits: [CommitIndex], locations: [CommitIndexLocation], end: Int64)? {
        let size = window.fileSize
        let trailerBytes = Int64(NavLogFormat.trailerFrameBytes)
        guard size >= Int64(SegmentFormat.preambleBytes) + trailerBytes + 8,
              let footerOffset = Trailer.footerOffset(frame: try window.view(at: size - trailerBytes, count: Int(trailerBytes))),
              footerOffset >= Int64(SegmentFormat.preambleBytes), footerOffset <= size - trailerBytes - 8 else { return nil }
        let frameBytes = Int(size - trailerBytes - footerOffset)
        guard frameBytes <= SegmentFormat.maxRecordBytes else { return nil }
        let frame = try window.view(at: footerOffset, count: frameBytes)
        guard frame.loadLE32(0) == NavLogFormat.navlogSkippableMagic, Int(frame.loadLE32(4)) == frameBytes - 8 else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: frame[8...])
        guard case .success(SegmentFormat.Tag.footer.rawValue) = SkippableFrame.checkRecord(payload),
              let locations = SegmentFooter.locations(payload: payload) else { return nil }
        var commits: [CommitIndex] = []
        var expected = previousCommit + 1
        var end = Int64(SegmentFormat.preambleBytes)
        for location in locations {
            guard location.offset >= end, location.offset + Int64(location.length) <= footerOffset,
                  let index = try CommitIndex.read(location, in: window), index.number == expected else { return nil }
            commits.append(index)
            expected += 1
            end = location.offset + Int64(location.length)
        }
        return (commits, locations, end)
    }
}
