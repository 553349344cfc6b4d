import NavLogCore

/// Hands out a reader's events in seq order, one block in memory at a time.
///
/// ```swift
/// let cursor = reader.cursor(fromSeq: 10, toSeq: 20)
/// while let event = try cursor.next() { print(event.seq) }
/// ```
///
/// A cursor on a reader that follows a growing file picks up where it was
/// after ``LogReader/refresh()``: it never hands out a seq twice or out of order.
/// A cursor is used from one thread at a time; its position skips Swift's
/// run-time exclusivity checks.
public final class LogCursor {
    private let reader: LogReader
    /// Events with a seq below this are skipped.
    private let fromSeq: Int
    /// Events with a seq above this end the cursor.
    private let toSeq: Int
    /// The seq of the last event handed out (or `fromSeq - 1`).
    @exclusivity(unchecked) public private(set) var lastSeq: Int
    @exclusivity(unchecked) private var blockReader: BlockReader?
    private let scratch: LogScanScratch?
    /// The block whose content is loaded (`-1`: none; `blocks.count`: the tail).
    @exclusivity(unchecked) private var loadedBlock = -1
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var tailPosition = 0

    init(reader: LogReader, fromSeq: Int, toSeq: Int, scratch: LogScanScratch?) {
        self.reader = reader
        self.scratch = scratch
        self.fromSeq = max(fromSeq, 1)
        self.toSeq = toSeq
        self.lastSeq = max(fromSeq, 1) - 1
    }

    deinit { scratch?.release(by: ObjectIdentifier(self)) }

    /// The next event, or `nil` at the end (for now, if the file grows).
    public func next() throws(FileError) -> Event? {
        while true {
            if lastSeq >= toSeq { return nil }
            let blocks = reader.blocks
            if loadedBlock >= 0 && loadedBlock < blocks.count {
                if let event = try nextInBlock(blocks[loadedBlock]) { return event }
                loadedBlock += 1
                position = 0
                if loadedBlock < blocks.count { try load(loadedBlock) }
                continue
            }
            // Position (again): the first block that can hold lastSeq + 1.
            let index = reader.blockIndex(containingSeq: lastSeq + 1)
            if index < blocks.count {
                try load(index)
                continue
            }
            // The tail, if any.
            let events = reader.tailEvents
            while tailPosition < events.count, events[tailPosition].seq <= lastSeq { tailPosition += 1 }
            guard tailPosition < events.count else {
                tailPosition = 0
                loadedBlock = -1
                return nil
            }
            let event = events[tailPosition]
            tailPosition += 1
            if event.seq > toSeq {
                lastSeq = toSeq
                return nil
            }
            lastSeq = event.seq
            return event
        }
    }

    /// Calls `body` with each remaining event, in the order ``next()`` would
    /// hand them out, until the end (for now) or until `body` throws. Events
    /// of a block go straight from the parser to `body`, without being
    /// copied out one by one; a ``FileError`` is thrown as it is.
    public func forEach(_ body: (Event) throws -> Void) throws {
        while lastSeq < toSeq {
            if loadedBlock >= 0, loadedBlock < reader.blocks.count, let blockReader {
                let block = loadedBlock
                let entry = reader.blocks[block]
                while loadedBlock == block, position < blockReader.content.count {
                    let content = blockReader.content.bytes
                    let end = lineEnd(in: content, from: position)
                    let line = UnsafeRawBufferPointer(rebasing: content[position..<end])
                    position = end + 1
                    let event = try blockReader.parse(line, of: entry)
                    if event.seq <= lastSeq { continue }
                    if event.seq > toSeq {
                        lastSeq = toSeq
                        return
                    }
                    lastSeq = event.seq
                    try body(event)
                }
                guard loadedBlock == block else { continue }
                try blockReader.checkEnd(lastSeq: lastSeq, of: entry)
                loadedBlock += 1
                position = 0
                if loadedBlock < reader.blocks.count { try load(loadedBlock) }
                continue
            }
            guard let event = try next() else { return }
            try body(event)
        }
    }

    private func load(_ index: Int) throws(FileError) {
        if blockReader == nil {
            if let shared = scratch?.take(for: ObjectIdentifier(self), file: reader.file) {
                blockReader = shared
            } else {
                blockReader = try BlockReader(file: reader.file)
                scratch?.keep(blockReader!, for: ObjectIdentifier(self))
            }
        }
        try blockReader!.read(reader.blocks[index])
        loadedBlock = index
        position = 0
    }

    private func nextInBlock(_ entry: BlockEntry) throws(FileError) -> Event? {
        guard let blockReader else { return nil }
        let content = blockReader.content.bytes
        while position < content.count {
            let end = lineEnd(in: content, from: position)
            let line = UnsafeRawBufferPointer(rebasing: content[position..<end])
            position = end + 1
            let event = try blockReader.parse(line, of: entry)
            if event.seq <= lastSeq { continue }
            if event.seq > toSeq {
                lastSeq = toSeq
                return nil
            }
            lastSeq = event.seq
            return event
        }
        try blockReader.checkEnd(lastSeq: lastSeq, of: entry)
        return nil
    }
}
