/// What ``FunnelSegments`` keeps while it reads a store's screen projection:
/// for each block, which steps each of its distinct names matches (matched
/// once per name, not once per row) and the segment of each of its
/// `session.start` templates; and the rows of the session being counted.
struct FunnelProjectionTables: Sendable {
    /// The blocks the tables are of.
    var owner: ScreenProjectionBlocks?
    /// Per block: for kind k and name n, at `k * names.count + n`, bit s set
    /// when the row matches step s, bit 63 when it matches an exclusion.
    var masks: [[UInt64]?] = []
    /// Per block: the segment of each `session.start` template.
    var segments: [[String?]?] = []
    var rows = ProjectedFunnelRows()
    var scratch = FunnelScratch()

    /// The most steps the masks hold (bit 63 is the exclusions').
    static let maxSteps = 63
    static let excludedBit: UInt64 = 1 << 63

    /// Forgets the tables when `projection` is not the blocks they are of.
    mutating func use(_ projection: ScreenProjectionBlocks) {
        guard owner !== projection else { return }
        owner = projection
        masks = Array(repeating: nil, count: projection.blocks.count)
        segments = Array(repeating: nil, count: projection.blocks.count)
    }

    /// Block `b`'s masks, made on first use.
    mutating func masks(_ b: Int, _ block: ScreenProjectionBlock, funnel: Funnel) -> [UInt64] {
        if let made = masks[b] { return made }
        var made: [UInt64] = []
        made.reserveCapacity(ScreenProjectionBlock.kinds.count * block.names.count)
        for target in ScreenProjectionBlock.kinds {
            for name in block.names {
                let occurrence = FunnelOccurrence(seq: 0, t: Timestamp(milliseconds: 0), target: target, name: name)
                var mask: UInt64 = 0
                for (k, step) in funnel.steps.enumerated() where step.matches(occurrence) { mask |= 1 << UInt64(k) }
                if funnel.exclusions.contains(where: { $0.matches(occurrence) }) { mask |= Self.excludedBit }
                made.append(mask)
            }
        }
        masks[b] = made
        return made
    }

    /// The segment (`--by path`) of template `s` of block `b`.
    mutating func segment(_ b: Int, _ block: ScreenProjectionBlock, template s: Int, path: [String]) -> String {
        if segments[b] == nil { segments[b] = Array(repeating: nil, count: block.startCount) }
        if let made = segments[b]![s - 1] { return made }
        let value = SessionOccurrences.segment(of: block.startTemplate(s), path)
        segments[b]![s - 1] = value
        return value
    }
}

/// A session's rows from a screen projection, each with the mask of the
/// steps and exclusions it matches.
struct ProjectedFunnelRows: FunnelRows, Sendable {
    var seqs: [Int] = []
    var times: [Int64] = []
    var kinds: [UInt8] = []
    var masks: [UInt64] = []

    mutating func removeAll() {
        seqs.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        masks.removeAll(keepingCapacity: true)
    }

    var count: Int { seqs.count }
    func seq(_ i: Int) -> Int { seqs[i] }
    func milliseconds(_ i: Int) -> Int64 { times[i] }
    func target(_ i: Int) -> FunnelStep.Target { ScreenProjectionBlock.kinds[Int(kinds[i])] }
    func matches(step k: Int, _ i: Int) -> Bool { masks[i] & (1 << UInt64(k)) != 0 }
    func isExcluded(_ i: Int) -> Bool { masks[i] & FunnelProjectionTables.excludedBit != 0 }
}

extension FunnelSegments {
    /// Only a segment (`--by`) and a funnel of more steps than a mask holds read the `session.start` events.
    public var readsSessionStarts: Bool { segmentPath != nil || funnel.steps.count > FunnelProjectionTables.maxSteps }

    /// Counts one session from a screen projection's columns: the same
    /// count as ``add(_:)`` of its occurrences, with each step matched once
    /// per distinct name of a block.
    public mutating func add(projected session: ProjectedSession) {
        guard funnel.steps.count <= FunnelProjectionTables.maxSteps else {
            add(session.occurrences(keepsMarks: Self.needsMarks))
            return
        }
        projectionTables.use(session.projection)
        let (start, startRun) = session.start()
        guard isCounted(startedAt: start.map(Timestamp.init(milliseconds:))) else { return }
        var segment = ""
        if let segmentPath, let run = startRun {
            let block = session.projection.blocks[Int(run.block)]
            if segmentPath.first == "session" {
                // The template's session is "-": this one needs the session's own id.
                segment = SessionOccurrences.segment(of: block.sessionStart(Int(run.session)), segmentPath)
            } else {
                segment = projectionTables.segment(Int(run.block), block, template: block.startIndex(Int(run.session)), path: segmentPath)
            }
        }
        projectionTables.rows.removeAll()
        session.forEachRun { block, b, i in
            let masks = projectionTables.masks(b, block, funnel: funnel)
            let names = block.names.count
            block.forEachRow(of: i) { seq, t, kind, name, _ in
                projectionTables.rows.seqs.append(seq)
                projectionTables.rows.times.append(t)
                projectionTables.rows.kinds.append(UInt8(kind))
                projectionTables.rows.masks.append(masks[kind * names + name])
            }
        }
        let rows = projectionTables.rows
        count(funnel.evaluate(rows, scratch: &projectionTables.scratch), in: segment)
    }
}
