import NavLogCore

/// The verifier's checks of data frames: the LZ4 frame, every line, seq
/// order and one session, and the state chain replayed block by block.
extension VerifyRun {
    // MARK: Data frames

    mutating func verifyDataFrame(_ extent: LZ4FrameExtent) throws(FileError) {
        let start = offset
        guard let length = extent.length else {
            // Unfinished: count what a writer's recovery keeps (the one rule), then stop.
            let open = OpenFrame(offset: start, frameIndex: frame, completeLength: extent.completeLength, finished: false)
            let kept = try BlockReader(file: file).readOpenEvents(open, after: lastSeq, session: session)
            let recovered = kept.events.count
            report.recoverableTailEvents = recovered
            var error: LZ4FrameError?
            if case .lz4(let refused) = kept.salvage.problem { error = refused }
            problem(.verify(.unfinishedFrame(error, recoverableEvents: recovered, bytes: size - start)),
                    at: start, frame: frame, seq: lastSeq + 1)
            offset = size
            return
        }
        var block = PendingBlock(offset: start, length: length, frame: frame, extent: extent)
        scratch.removeAll()
        try file.read(count: length, at: start, appendingTo: scratch)
        content.removeAll()
        var decoded = true
        do throws(LZ4FrameError) {
            _ = try decoder.decodeFrame(scratch.bytes, maxContentBytes: NavLogFormat.maxBlockContentBytes, into: content)
        } catch {
            problem(.dataFrame(.lz4(error)), at: start, frame: frame, seq: lastSeq + 1)
            decoded = false
            lostBlocks = true
        }
        if decoded {
            block.contentChecksum = extent.contentChecksum
            if !extent.descriptor.contentChecksum { problem(.verify(.noContentChecksum), at: start, frame: frame) }
            if let claimed = extent.descriptor.contentSize, claimed != UInt64(content.count) {
                problem(.verify(.contentSizeClaim(claimed: claimed, holds: content.count)), at: start, frame: frame)
            }
            block.stats = try verifyLines(frameOffset: start)
        }
        if block.stats != nil, chainValid, !lostBlocks, let chain {
            var sealed = chain
            let (hash, json) = sealed.sealBlock()
            self.chain = sealed
            block.hash = hash
            block.checkpointJSON = json
        }
        pending = block
        lastEntryOK = false
        offset = start + Int64(length)
        frame += 1
    }

    /// Checks each line of `content`; returns the block's facts, or `nil`
    /// when a line is bad (each bad line is reported).
    mutating func verifyLines(frameOffset: Int64) throws(FileError) -> BlockStats? {
        var stats = BlockStats()
        var ok = true
        let bytes = content.bytes
        if bytes.count == 0 || bytes[bytes.count - 1] != 0x0A {
            problem(.verify(.noFinalNewline), at: frameOffset, frame: frame, seq: lastSeq + 1)
            ok = false
        }
        var lineNumber = 0
        var problemsHere: [(VerifyFault, Int?)] = []
        try forEachLine(in: bytes) { (line, _) throws(FileError) in
            lineNumber += 1
            let event: Event
            do throws(EventParseError) { event = try parser.parse(line) } catch {
                problemsHere.append((.lineUnparsable(line: lineNumber, error), nil))
                ok = false
                return problemsHere.count < 5
            }
            if let session, !SessionID.same(event.session, session) {
                problemsHere.append((.otherSession(event.session, log: session), event.seq))
                ok = false
            }
            if event.seq <= lastSeq {
                problemsHere.append((.seqNotIncreasing(seq: event.seq, previous: lastSeq), event.seq))
                ok = false
            }
            if session == nil {
                session = event.session
                chain = StateChain(session: event.session)
            }
            let t = event.t.milliseconds
            stats.count(seq: event.seq, t: t)
            if let lastT, t < lastT { timeOrdered = false }
            lastT = t
            runningMaxT = max(runningMaxT, t)
            lastSeq = max(lastSeq, event.seq)
            chain?.apply(event)
            return true
        }
        for (why, seq) in problemsHere { problem(.verify(why), at: frameOffset, frame: frame, seq: seq) }
        stats.rawBytes = bytes.count
        if !ok { chainValid = false }
        return ok ? stats : nil
    }

    /// ``closePending()`` before damage met at `offset`: damage right where the pending data
    /// frame's entry belongs is that entry's (its block is lost), not also a missing entry.
    mutating func closePending(damagedAt offset: Int64) {
        if let block = pending, block.offset + Int64(block.length) == offset {
            pending = nil
            lostBlocks = true
        } else {
            closePending()
        }
    }

    /// A data frame not followed by its entry is a problem.
    mutating func closePending() {
        if let block = pending {
            problem(.verify(.entryMissing), at: block.offset + Int64(block.length),
                    frame: block.frame + 1, seq: block.stats?.firstSeq)
            pending = nil
            lostBlocks = true
        }
    }
}
