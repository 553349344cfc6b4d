/// The trailer (`NLTR`), the last 24 bytes of a closed file.
enum Trailer {
    /// The footer offset a trailer frame points at, or `nil` if the 24 bytes
    /// are not a valid trailer.
    static func footerOffset(frame v: UnsafeRawBufferPointer) -> Int64? {
        guard v.count == NavLogFormat.trailerFrameBytes,
              v.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              v.loadLE32(4) == UInt32(NavLogFormat.trailerPayloadBytes) else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: v[8...])
        guard case .success(NavLogFormat.Tag.trailer.rawValue) = SkippableFrame.checkRecord(payload) else { return nil }
        let offset = payload.loadLE64(4)
        guard offset <= UInt64(Int64.max) else { return nil }
        return Int64(offset)
    }
}

extension FileWindow {
    /// The footer record a valid trailer at the end of the file points at
    /// (a closed `.navlog` and a sealed segment both end so): its offset and
    /// payload, valid until the window's next read. `nil` unless the footer
    /// frame lies between the preamble and the trailer, is at most
    /// `maxBytes` long, and its record checksum holds with tag `tag`.
    func footerBehindTrailer(preambleBytes: Int, maxBytes: Int, tag: UInt32) throws(FileError)
        -> (offset: Int64, payload: UnsafeRawBufferPointer)? {
        let trailerBytes = Int64(NavLogFormat.trailerFrameBytes)
        guard fileSize >= Int64(preambleBytes) + trailerBytes + 8,
              let offset = Trailer.footerOffset(frame: try view(at: fileSize - trailerBytes, count: Int(trailerBytes))),
              offset >= Int64(preambleBytes), offset <= fileSize - trailerBytes - 8 else { return nil }
        let frameBytes = Int(fileSize - trailerBytes - offset)
        guard frameBytes <= maxBytes else { return nil }
        let frame = try view(at: offset, count: frameBytes)
        guard frame.count == frameBytes, frame.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              Int(frame.loadLE32(4)) == frameBytes - 8 else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: frame[8...])
        guard case .success(tag) = SkippableFrame.checkRecord(payload) else { return nil }
        return (offset, payload)
    }
}
