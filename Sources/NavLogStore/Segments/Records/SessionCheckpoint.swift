import NavLogCore

/// A session checkpoint (`NLSC`, schemas/segment-store.md §5.2): the state
/// of one session after the event at position P (a multiple of K), and the
/// chain hash there.
struct SessionCheckpoint: Hashable, Sendable {
    var key: SessionKey
    var position: Int
    var seq: Int
    var chain: UInt64
    /// The state's checkpoint JSON (navlog-format §7).
    var json: [UInt8]

    /// The whole skippable frame, the JSON compressed by `encoder`.
    func frame(encoder: LZ4FrameEncoder) throws(LZ4FrameError) -> [UInt8] {
        let compressed = ByteBuffer(capacity: json.count / 2 + 64)
        try json.withUnsafeBytes { raw in Result { () throws(LZ4FrameError) in try encoder.compressFrame(raw, into: compressed) } }.get()
        var body: [UInt8] = []
        body.reserveCapacity(SegmentFormat.checkpointFixedBytes + key.id.count + compressed.count)
        body.appendLE(key.hash)
        body.appendLE(UInt16(key.id.count))
        body.append(contentsOf: key.id)
        body.appendLE(UInt64(position))
        body.appendLE(UInt64(seq))
        body.appendLE(chain)
        body.appendLE(UInt32(json.count))
        body.append(contentsOf: compressed.bytes)
        var out: [UInt8] = []
        SkippableFrame.appendRecord(.checkpoint, body: body, to: &out)
        return out
    }

    /// Decodes a payload whose tag and checksum were checked, decompressing
    /// the state JSON; what is wrong when it is malformed.
    static func decode(payload p: UnsafeRawBufferPointer, decoder: LZ4FrameDecoder) -> Result<SessionCheckpoint, SegmentFault> {
        guard p.count >= SegmentFormat.checkpointFixedBytes else { return .failure(.checkpoint("payload of \(p.count) bytes is too short")) }
        let idLength = Int(p.loadLE16(12))
        guard 14 + idLength + 28 + 4 <= p.count else { return .failure(.checkpoint("id of \(idLength) bytes runs past the record")) }
        let key = SessionKey(id: Array(p[14..<(14 + idLength)]))
        guard key.hash == p.loadLE64(4) else { return .failure(.checkpoint("session hash does not match the id")) }
        let at = 14 + idLength
        let jsonSize = Int(p.loadLE32(at + 24))
        guard jsonSize <= StateChain.maxCheckpointJSONBytes else { return .failure(.checkpoint("state of \(jsonSize) bytes is over the limit")) }
        let frame = UnsafeRawBufferPointer(rebasing: p[(at + 28)..<(p.count - 4)])
        let out = ByteBuffer(capacity: jsonSize + 16)
        do {
            let used = try decoder.decodeFrame(frame, maxContentBytes: jsonSize, into: out)
            guard used == frame.count, out.count == jsonSize else {
                return .failure(.checkpoint("state frame holds \(out.count) bytes in \(used) of \(frame.count), \(jsonSize) expected"))
            }
        } catch {
            return .failure(.checkpoint("state frame: \(error)"))
        }
        return .success(SessionCheckpoint(key: key, position: Int(clamping: p.loadLE64(at)), seq: Int(clamping: p.loadLE64(at + 8)),
                                          chain: p.loadLE64(at + 16), json: Array(out.bytes)))
    }

    /// The state it holds, or `nil` when its JSON is not a state.
    func state() -> NavigationState? { StateChain.decodeCheckpoint(json) }
}
