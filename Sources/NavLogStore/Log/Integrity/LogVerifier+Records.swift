import NavLogCore

/// The verifier's checks of navlog records (block entries, checkpoints, the
/// footer and its trailer), and how it finds the next frame after damaged bytes.
extension VerifyRun {
    // MARK: Skippable frames

    mutating func verifySkippable(magic: UInt32, payloadSize: Int) throws(FileError) {
        let start = offset
        let end = start + 8 + Int64(payloadSize)
        defer {
            offset = end
            frame += 1
        }
        guard magic == NavLogFormat.navlogSkippableMagic else {
            closePending(damagedAt: start)
            problem(.verify(.foreignSkippable(magic: magic)), at: start, frame: frame)
            lastEntryOK = false
            return
        }
        let cap = NavLogFormat.maxFooterBytes
        guard payloadSize >= 8, payloadSize <= cap else {
            closePending(damagedAt: start)
            problem(.verify(.recordSize(bytes: payloadSize)), at: start, frame: frame)
            return
        }
        scratch.removeAll()
        try file.read(count: payloadSize, at: start + 8, appendingTo: scratch)
        let payload = scratch.bytes
        let tag: UInt32
        switch SkippableFrame.checkRecord(payload) {
        case .failure(let p):
            brokenRecordEnd = end
            if pending != nil && payloadSize == NavLogFormat.blockEntryPayloadBytes {
                problem(.verify(.entryRecord(p)), at: start, frame: frame, seq: pending?.stats?.firstSeq)
                pending = nil
                lostBlocks = true
            } else {
                closePending(damagedAt: start)
                problem(.verify(.record(p)), at: start, frame: frame)
            }
            lastEntryOK = false
            return
        case .success(let t): tag = t
        }
        switch NavLogFormat.Tag(rawValue: tag) {
        case .block:
            verifyEntry(payload, at: start)
        case .checkpoint:
            closePending()
            try verifyCheckpoint(payload, at: start, frameLength: payloadSize + 8)
            lastEntryOK = false
        case .footer:
            closePending()
            footerSeen = (start, frame, Footer(payload: payload))
            if footerSeen?.footer == nil { problem(.verify(.footerFields), at: start, frame: frame) }
            lastEntryOK = false
        case .trailer:
            closePending()
            let pointed = Int64(payload.loadLE64(4))
            if let seen = footerSeen, seen.offset == pointed, end == size {
                if let footer = seen.footer { compareFooter(footer, at: seen.offset, frame: seen.frame) }
                report.hasFooter = true
            } else if report.problems.isEmpty {
                // (After damage, the footer it points at was among the damaged bytes: not a second problem.)
                problem(.verify(.trailerMisplaced), at: start, frame: frame)
            }
            footerSeen = nil
        case .header:
            closePending()
            problem(.secondHeader, at: start, frame: frame)
        case nil:
            closePending()
            report.notes.append("\(placeText(offset: start, frame: frame)): record with unknown tag \(hex(tag)) passed over (newer minor version?)")
            lastEntryOK = false
        }
    }

    mutating func verifyEntry(_ payload: UnsafeRawBufferPointer, at start: Int64) {
        lastEntryOK = false
        guard let block = pending else {
            // Right after bytes skipped as damaged, its data frame was among them: not a second problem.
            if case .skipped(let bytes)? = report.problems.last?.kind, report.problems.last!.offset + bytes == start { return }
            problem(.entryWithoutData, at: start, frame: frame)
            return
        }
        pending = nil
        guard let e = BlockEntry(payload: payload) else {
            problem(.verify(.entryFieldsOutOfRange), at: start, frame: frame, seq: block.stats?.firstSeq)
            return
        }
        // After lost blocks, the entry's own numbering is taken (the count of those before it is not known).
        var wrong = e.disagreements(offset: block.offset, length: block.length, index: lostBlocks ? e.blockIndex : entries.count,
                                    frame: lostBlocks ? e.dataFrameIndex : block.frame,
                                    checksum: block.contentChecksum).compactMap(\.field)
        func check<T: Equatable>(_ name: String, _ stored: T, _ actual: T?) {
            if let actual, stored != actual { wrong.append(FieldMismatch(field: name, stored: "\(stored)", found: "\(actual)")) }
        }
        if let s = block.stats {
            check("content size", e.contentSize, s.rawBytes)
            check("event count", e.eventCount, s.eventCount)
            check("first seq", e.firstSeq, s.firstSeq)
            check("last seq", e.lastSeq, s.lastSeq)
            check("first t", e.firstT, s.firstT)
            check("last t", e.lastT, s.lastT)
            check("min t", e.minT, s.minT)
            check("max t", e.maxT, s.maxT)
            if !lostBlocks {
                check("running max t", e.runningMaxT, runningMaxT)
                check("time-ordered flag", e.timeOrdered, timeOrdered)
            }
            check("state chain", e.stateHash, block.hash)
        }
        guard wrong.isEmpty else {
            problem(.verify(.entryMismatch(wrong)), at: start, frame: frame, seq: e.firstSeq)
            return
        }
        guard block.stats != nil else {
            // Its frame could not be read (that is the problem): the entry keeps the numbering, unchecked.
            entries.append(e)
            return
        }
        entries.append(e)
        report.blocks += 1
        report.events += e.eventCount
        if report.firstSeq == nil { report.firstSeq = e.firstSeq }
        report.lastSeq = e.lastSeq
        lastEntryOK = true
        lastCheckpointJSON = block.checkpointJSON
        if report.problems.isEmpty { report.validPrefixEnd = start + Int64(8 + NavLogFormat.blockEntryPayloadBytes) }
    }

    mutating func verifyCheckpoint(_ payload: UnsafeRawBufferPointer, at start: Int64, frameLength: Int) throws(FileError) {
        guard let record = CheckpointRecord(payload: payload) else {
            problem(.checkpoint(.fieldsOutOfRange), at: start, frame: frame)
            return
        }
        // After lost blocks, no state is known to compare it with.
        if lostBlocks { return }
        guard lastEntryOK, let last = entries.last else {
            problem(.checkpoint(.notAfterVerifiedEntry), at: start, frame: frame, seq: record.seq)
            return
        }
        if let why = record.mismatch(after: last) {
            problem(.checkpoint(why), at: start, frame: frame, seq: record.seq)
            return
        }
        let json = ByteBuffer(capacity: 4096)
        let (state, faults) = record.decodeState(payload, decoder: decoder, into: json)
        for fault in faults { problem(.checkpoint(.verifiedState(fault)), at: start, frame: frame, seq: record.seq) }
        guard state != nil else { return }
        if let expected = lastCheckpointJSON, expected != json.array {
            problem(.checkpoint(.stateDiffers), at: start, frame: frame, seq: record.seq)
            return
        }
        refs.append(CheckpointRef(offset: start, frameLength: frameLength, seq: record.seq,
                                  blockIndex: record.blockIndex, frameIndex: frame))
        report.checkpoints += 1
        if report.problems.isEmpty { report.validPrefixEnd = start + Int64(frameLength) }
    }

    mutating func compareFooter(_ footer: Footer, at start: Int64, frame footerFrame: Int) {
        // The footer restates what the walk met; after damage the walk met less, and that is the problem.
        guard report.problems.isEmpty else { return }
        var wrong: [FooterMismatch] = []
        if footer.footerOffset != start { wrong.append(.footerOffset(stored: footer.footerOffset, actual: start)) }
        if footer.frameIndex != footerFrame { wrong.append(.frameIndex(stored: footer.frameIndex, actual: footerFrame)) }
        if footer.entries != entries { wrong.append(.entries(stored: footer.entries.count, inFile: entries.count)) }
        if footer.checkpoints != refs { wrong.append(.checkpoints(stored: footer.checkpoints.count, inFile: refs.count)) }
        if footer.eventCount != report.events { wrong.append(.eventCount(stored: footer.eventCount, inBlocks: report.events)) }
        if !wrong.isEmpty { problem(.verify(.footerMismatch(wrong)), at: start, frame: footerFrame) }
    }

    mutating func finish() {
        // (Unless what came after the footer, where its trailer belongs, was found damaged.)
        if let seen = footerSeen, !report.problems.contains(where: { $0.offset > seen.offset }) {
            problem(.verify(.footerWithoutTrailer), at: seen.offset, frame: seen.frame)
        }
        if !report.hasFooter { report.notes.append("no footer: the log was not closed (or is being written)") }
    }

    // MARK: Resynchronising

    /// The offset of the next plausible frame start after damaged bytes at
    /// `from` (an LZ4 frame whose header checksum holds, or a navlog record
    /// that fits in the file), or the file size.
    func resync(after from: Int64) throws(FileError) -> Int64 {
        /// Whether a frame starts at `offset` and is followed by another (or by the end of the
        /// file): an LZ4 frame found inside a checkpoint record (its state) is followed by the
        /// rest of that record, not by a frame.
        func startsFrames(at offset: Int64) throws(FileError) -> Bool {
            let end: Int64
            switch try window.probe(at: offset) {
            case .lz4(let extent):
                guard let length = extent.length else { return true }  // unfinished: the file's end
                end = offset + Int64(length)
            case .skippable(_, let payloadSize): end = offset + 8 + Int64(payloadSize)
            default: return false
            }
            switch try window.probe(at: end) {
            case .lz4, .skippable, .endOfFile, .truncated: return true
            case .invalid: return false
            }
        }

        var at = from + 1
        let chunk = 1 << 20
        while at + 4 <= size {
            let bytes = try file.read(count: Int(min(Int64(chunk + 19), size - at)), at: at)
            let n = bytes.count
            var i = 0
            while i + 4 <= n {
                if bytes[i + 3] == 0x18 && bytes[i + 2] == 0x4D {
                    let candidate = at + Int64(i)
                    if bytes[i] == 0x04 && bytes[i + 1] == 0x22 || bytes[i] == 0x5E && bytes[i + 1] == 0x2A,
                       try startsFrames(at: candidate) {
                        return candidate
                    }
                }
                i += 1
                if i >= chunk { break }
            }
            at += Int64(min(i, chunk))
        }
        return size
    }
}
