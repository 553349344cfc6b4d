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
        guard ref.frameLength > 8 + NavLogFormat.checkpointFixedBytes + 4, ref.frameLength <= 8 + maxPayloadBytes else {
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
        let json = ByteBuffer(capacity: min(max(record.jsonBytes, 16), 64 << 10))
        let (decoded, faults) = record.decodeState(payload, decoder: decoder, into: json)
        guard let state = decoded, faults.isEmpty else { throw corrupt(.state(faults[0])) }
        guard state.seq == record.seq else { throw corrupt(.stateSeq(state: state.seq, record: record.seq)) }
        return (state, record.stateHash)
    }

    /// Decodes the state JSON that this record's checked `payload` embeds
    /// into `json`: the state, and what does not hold, in order (bytes after
    /// the state frame are noted and the rest still checked; anything else ends it).
    func decodeState(
        _ payload: UnsafeRawBufferPointer, decoder: LZ4FrameDecoder, into json: ByteBuffer
    ) -> (state: NavigationState?, faults: [CheckpointStateFault]) {
        let embedded = UnsafeRawBufferPointer(rebasing: payload[NavLogFormat.checkpointFixedBytes..<(payload.count - 4)])
        var faults: [CheckpointStateFault] = []
        do throws(LZ4FrameError) {
            let used = try decoder.decodeFrame(embedded, maxContentBytes: jsonBytes, into: json)
            if used != embedded.count { faults.append(.bytesAfterFrame) }
        } catch {
            return (nil, [.frame(error)])
        }
        guard json.count == jsonBytes else { return (nil, faults + [.size(decoded: json.count, record: jsonBytes)]) }
        guard let state = StateChain.decodeCheckpoint(json.array) else { return (nil, faults + [.undecodable]) }
        return (state, faults)
    }
}

extension ByteBuffer {
    /// The bytes in use, copied into an array.
    var array: [UInt8] { [UInt8](bytes) }
}
