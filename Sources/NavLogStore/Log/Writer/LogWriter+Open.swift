import NavLogCore

/// Opening a ``LogWriter``: a new log's preamble, or an existing log continued.
extension LogWriter {
    func open() throws(FileError) {
        let size = try file.size()
        if size == 0 { return try blocks.writePreamble() }
        let window = FileWindow(file: file, fileSize: size)
        let (index, _) = try LogIndex.load(file: file, window: window)
        guard index.header != nil else {
            // Cut short inside its preamble: it holds no event yet.
            try file.truncate(to: 0)
            return try blocks.writePreamble()
        }
        if index.stopIsCorruption, var stop = index.stop {
            stop.kind = .needsRepair(stop.kind)
            throw FileError(stop)
        }
        try resume(from: index, fileSize: size)
    }

    /// Continues an existing log: rebuilds the running state from the last
    /// checkpoint, cuts what follows the body (keeping torn bytes in a side
    /// file), and finishes an unfinished data frame in place.
    func resume(from index: LogIndex, fileSize: Int64) throws(FileError) {
        let entries = index.entries
        eventCount = index.eventCount
        lastSeq = index.lastSeq
        if let last = entries.last {
            runningMaxT = last.runningMaxT
            timeOrdered = last.timeOrdered
            lastT = last.lastT
        }
        let reader = try BlockReader(file: file)
        let decoder: LZ4FrameDecoder
        do { decoder = try LZ4FrameDecoder() } catch { throw FileError(path: path, kind: .compression(error)) }
        // The state after the last committed block.
        var firstBlock = 0
        if let ref = index.checkpoints.last {
            let (state, hash) = try CheckpointRecord.loadState(from: file, ref: ref, decoder: decoder,
                                                               scratch: ByteBuffer())
            chain = StateChain(state: state, hash: hash)
            session = state.session
            firstBlock = ref.blockIndex + 1
        }
        eventsSinceCheckpoint = entries[firstBlock...].reduce(0) { $0 + $1.eventCount }
        for entry in entries[firstBlock...] {
            try reader.read(entry)
            try forEachLine(in: reader.content.bytes) { (line, _) throws(FileError) in
                let event = try reader.parse(line, of: entry)
                if chain == nil {
                    chain = StateChain(session: event.session)
                    session = event.session
                }
                chain!.apply(event)
                return true
            }
        }
        // The chain continues from the hash the file records: if this build's
        // projection disagrees with the one that wrote the log, `navlog
        // verify` reports the block where it does, and appending goes on.
        if let chain, let last = entries.last {
            self.chain = StateChain(state: chain.state, hash: last.stateHash)
        }
        // An unfinished data frame is finished in place: what follows its
        // last LZ4 block that ends a line is cut (into a side file), then its
        // end mark, content checksum and entry are appended. At every step a
        // crash leaves a file that opens with every acknowledged event.
        var keepEnd = index.bodyEnd
        var finish: (open: OpenFrame, salvage: BlockReader.OpenFrameSalvage, events: [Event], content: [UInt8])?
        if let open = index.openFrame {
            let kept = try reader.readOpenEvents(open, after: lastSeq, session: session)
            if kept.salvage.frameBytes > 0, !kept.events.isEmpty {
                keepEnd = open.offset + Int64(kept.salvage.frameBytes)
                finish = (open, kept.salvage, kept.events, [UInt8](reader.content.bytes))
            }
        }
        blocks.resume(from: index, end: keepEnd)
        if fileSize > keepEnd {
            if index.footerOffset == keepEnd && index.openFrame == nil && index.stop == nil {
                // Only a footer: it holds nothing that is not elsewhere.
                try file.truncate(to: keepEnd)
                try file.sync()
            } else {
                let side = try TornTail.setAside(file, from: keepEnd, to: fileSize)
                recovery = LogRecovery(cutOffset: keepEnd, cutBytes: fileSize - keepEnd, sideFile: side,
                                       recoveredEvents: finish?.events.count ?? 0,
                                       reason: index.stop?.kind.description ?? OpenFrameDamage.cutAt(offset: index.bodyEnd).description)
            }
        }
        if let finish {
            for event in finish.events {
                absorb(event, seq: event.seq, lineBytes: 0)
            }
            block.rawBytes = finish.content.count
            blocks.out.removeAll()
            if !finish.salvage.finished {
                var tail: [UInt8] = []
                tail.appendLE(UInt32(0))                              // end mark
                tail.appendLE(XXHash32.hash(finish.content))          // content checksum
                blocks.out.append(tail)
            }
            let checksum = XXHash32.hash(finish.content)
            guard var sealedChain = chain else { return }
            let (hash, json) = sealedChain.sealBlock()
            chain = sealedChain
            let checkpointDue = eventsSinceCheckpoint >= options.checkpointInterval
            if checkpointDue { eventsSinceCheckpoint = 0 }
            let sealed = SealedBlock(lines: ByteBuffer(capacity: 16), stats: block, runningMaxT: runningMaxT,
                                     timeOrdered: timeOrdered, stateHash: hash, checkpointJSON: checkpointDue ? json : nil)
            block = BlockStats()
            try blocks.finishBlock(sealed, dataOffset: finish.open.offset, contentChecksum: checksum)
            try blocks.sync()
            if recovery == nil {
                recovery = LogRecovery(cutOffset: blocks.end, cutBytes: 0, sideFile: nil, recoveredEvents: finish.events.count,
                                       reason: OpenFrameDamage.finishedInPlace(offset: finish.open.offset).description)
            }
        }
    }
}
