import NavLogCore

extension CheckpointRecord {
    /// Reads the checkpoint `ref` points at and decodes its state; every
    /// checksum is verified and every size bounded before use.
    static func loadState(
        from file: LogFile, ref: CheckpointRef, decoder: LZ4FrameDecoder, scratch: ByteBuffer
    ) throws(LogError) -> (state: NavigationState, hash: UInt64) {
        func corrupt(_ why: String) -> LogError {
            LogError.corrupt(file.path, "checkpoint: \(why)", offset: ref.offset, frame: ref.frameIndex, seq: ref.seq)
        }
        let limit = NavLogFormat.maxCheckpointBytes + NavLogFormat.checkpointFixedBytes + 12
        guard ref.frameLength > 8 + NavLogFormat.checkpointFixedBytes + 4, ref.frameLength <= limit else {
            throw corrupt("frame length \(ref.frameLength) is out of range")
        }
        scratch.removeAll()
        let got = try file.read(count: ref.frameLength, at: ref.offset, appendingTo: scratch)
        guard got == ref.frameLength else { throw corrupt("file ends inside the checkpoint") }
        let frame = scratch.bytes
        guard frame.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              Int(frame.loadLE32(4)) == ref.frameLength - 8 else { throw corrupt("bad frame header") }
        let payload = UnsafeRawBufferPointer(rebasing: frame[8...])
        switch SkippableFrame.checkRecord(payload) {
        case .failure(let problem): throw corrupt(problem.description)
        case .success(let tag):
            guard tag == NavLogFormat.Tag.checkpoint.rawValue else { throw corrupt("record is not NLCP") }
        }
        guard let record = CheckpointRecord(payload: payload), record.seq == ref.seq else {
            throw corrupt("fields out of range or not matching the index")
        }
        let embedded = UnsafeRawBufferPointer(rebasing: payload[NavLogFormat.checkpointFixedBytes..<(payload.count - 4)])
        let json = ByteBuffer(capacity: min(max(record.jsonBytes, 16), 64 << 10))
        do {
            let used = try decoder.decodeFrame(embedded, maxContentBytes: record.jsonBytes, into: json)
            guard used == embedded.count else { throw corrupt("trailing bytes after the state frame") }
        } catch let error as LZ4FrameError {
            throw corrupt("state frame: \(error)")
        } catch let error as LogError {
            throw error
        } catch {
            throw corrupt("\(error)")
        }
        guard json.count == record.jsonBytes else { throw corrupt("state JSON is \(json.count) bytes, record says \(record.jsonBytes)") }
        guard let state = StateChain.decodeCheckpoint(json.array) else { throw corrupt("state JSON does not decode") }
        guard state.seq == record.seq else { throw corrupt("state is after seq \(state.seq), record says \(record.seq)") }
        return (state, record.stateHash)
    }
}

extension ByteBuffer {
    /// The bytes in use, copied into an array.
    var array: [UInt8] { [UInt8](bytes) }
}
