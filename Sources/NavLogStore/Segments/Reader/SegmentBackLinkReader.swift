// Segments/Reader/: Reading a segment store: its directory, the catalog of commits, one session by id (state, cursor, follower, bisect), the block cache.

/// Opens the segment the durable point names, when it is not sealed, from
/// its commit indexes without a walk (schemas/segment-store.md §5.3, §6.1,
/// §9 "Open without a walk"): the index the point ends at, then each one
/// its back-link names, down to the segment's first commit.
struct SegmentBackLinkReader {
    let window: FileWindow

    /// The segment's commits up to and including the durable point's, in
    /// file order, with where each index frame is; `nil` when the point
    /// records no index length or any link does not hold (the caller then
    /// walks the segment whole). Commits are numbered from `previousCommit + 1`.
    func commits(to point: DurablePoint, previousCommit: UInt64) throws(FileError) -> (commits: [CommitIndex], locations: [CommitIndexLocation])? {
        guard point.commit > previousCommit, point.indexLength > 0, point.end <= window.fileSize else { return nil }
        var commits: [CommitIndex] = []
        var locations: [CommitIndexLocation] = []
        var location = CommitIndexLocation(offset: point.end - Int64(point.indexLength), length: point.indexLength)
        var expected = point.commit
        while true {
            guard let index = try CommitIndex.read(location, in: window), index.number == expected,
                  index.tiles(upTo: location.offset) else { return nil }
            commits.append(index)
            locations.append(location)
            if index.firstBlockOffset == Int64(SegmentFormat.preambleBytes) { break }
            // The segment's first commit must be the one after the previous segment's last.
            guard expected > previousCommit + 1, index.backLink > 0 else { return nil }
            location = CommitIndexLocation(offset: index.firstBlockOffset - Int64(index.backLink), length: index.backLink)
            expected -= 1
        }
        guard expected == previousCommit + 1 else { return nil }
        return (commits.reversed(), locations.reversed())
    }
}
