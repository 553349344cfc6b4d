import NavLogCore

extension CheckpointRecord {
    /// Reads the checkpoint `ref` points at and decodes its state; every
    /// checksum is verified and every size bounded before use.
    static func loadState(
        from file: OpenFile, ref: CheckpointRef, decoder: LZ4FrameDecoder, scratch: ByteBuffer
    ) throws(FileError) -> (state: NavigationState, hash: UInt64) {
        func corrupt(_ fault: CheckpointFault) -> FileError {
            FileError.corrupt(file.path, .checkpoint(fault), offset: ref.offset, frame: ref.frameIndex, seq: ref.seq)
        }
        let limit = NavLogFormat.maxCheckpointBytes + NavLogFormat.checkpointFixedBytes + 12
        guard ref.frameLength > 8 + NavLogFormat.checkpointFixedBytes + 4, ref.frameLength <= limit else {
            throw corrupt(.frameLength(ref.frameLength))
        }
        scratch.removeAll()
        let got = try file.read(count: ref.frameLength, at: ref.offset, appendingTo: scratch)
        guard got == ref.frameLength else { throw corrupt(.endsInside) }
        let frame = scratch.bytes
        guard frame.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              Int(frame.loadLE32(4)) == ref.frameLength - 8 else { throw corrupt(.frameHeader) }
        let payload = UnsafeRawBufferPointer(rebasing: frame[8...])
        switch SkippableFrame.checkRecord(payload) {
        case .failure(let problem): throw corrupt(.record(problem))
        case .success(let tag):
            guard tag == NavLogFormat.Tag.checkpoint.rawValue else { throw corrupt(.tag) }
        }
        guard let record = CheckpointRecord(payload: payload), record.seq == ref.seq else {
            throw corrupt(.fieldsDisagree)
        }
        let embedded = UnsafeRawBufferPointer(rebasing: payload[NavLogFormat.checkpointFixedBytes..<(payload.count - 4)])
        let json = ByteBuffer(capacity: min(max(record.jsonBytes, 16), 64 << 10))
        let used: Int
        do throws(LZ4FrameError) {
            used = try decoder.decodeFrame(embedded, maxContentBytes: record.jsonBytes, into: json)
        } catch {
            throw corrupt(.stateFrame(error))
        }
        guard used == embedded.count else { throw corrupt(.trailingBytes) }
        guard json.count == record.jsonBytes else { throw corrupt(.stateJSONSize(decoded: json.count, record: record.jsonBytes)) }
        guard let state = StateChain.decodeCheckpoint(json.array) else { throw corrupt(.stateJSONUndecodable) }
        guard state.seq == record.seq else { throw corrupt(.stateSeq(state: state.seq, record: record.seq)) }
        return (state, record.stateHash)
    }
}

extension ByteBuffer {
    /// The bytes in use, copied into an array.
    var array: [UInt8] { [UInt8](bytes) }
}
