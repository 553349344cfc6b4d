/// Opens a sealed segment from its trailer and footer (schemas/segment-store.md
/// §5.4, §9): two reads and the commit indexes, no walk.
struct SegmentFooterReader {
    let window: FileWindow

    /// The commits a valid trailer and footer list, and the end of the last;
    /// `nil` when there is no valid trailer, footer, or listed index (the
    /// caller then walks).
    func commits(previousCommit: UInt64) throws(FileError) -> (commits: [CommitIndex], locations: [CommitIndexLocation], end: Int64)? {
        guard let footerRecord = try window.footerBehindTrailer(
                  preambleBytes: SegmentFormat.preambleBytes, maxBytes: SegmentFormat.maxRecordBytes,
                  tag: SegmentFormat.Tag.footer.rawValue),
              let locations = SegmentFooter.locations(payload: footerRecord.payload) else { return nil }
        var commits: [CommitIndex] = []
        var expected = previousCommit + 1
        var end = Int64(SegmentFormat.preambleBytes)
        for location in locations {
            guard location.offset >= end, location.offset + Int64(location.length) <= footerRecord.offset,
                  let index = try CommitIndex.read(location, in: window), index.number == expected else { return nil }
            commits.append(index)
            expected += 1
            end = location.offset + Int64(location.length)
        }
        return (commits, locations, end)
    }
}
