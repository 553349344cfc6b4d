/// Rows of `export screens`: screen views, and with `--with-marks` marks,
/// deep links, session starts and one row at each session's first event.
public struct ScreenRows: ExportRows {
    let ndjson: Bool
    let withMarks: Bool
    private var csv = CSVWriter()
    private var scratch = CanonicalWriter()
    private var lastSession: String?
    private var seen: Set<SessionID> = []
    /// Sessions whose first `session.start` has its row.
    private var started: Set<SessionID> = []
    /// From a screen projection: the session's id as a CSV field, and the blocks' names and scenes as CSV fields.
    private var idField: [UInt8] = []
    private var fields = ProjectionCSVFields()
    /// Rows of a session mostly fall on one day: its date is written once.
    private var times = CanonicalTimestampCache()

    public init(ndjson: Bool, withMarks: Bool) {
        self.ndjson = ndjson
        self.withMarks = withMarks
    }

    public mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
        if withMarks {
            if lastSession.map({ !SessionID.same(event.session, $0) }) ?? true, seen.insert(SessionID(event.session)).inserted {
                row(event.session, event.seq, event.t, "", "", "session", to: &out)
            }
            lastSession = event.session
            switch event.kind {
            case .mark(let label): row(event.session, event.seq, event.t, event.sceneID, label, "mark", to: &out)
            case .urlOpen(let url): row(event.session, event.seq, event.t, event.sceneID, url, "url", to: &out)
            case .sessionStart where started.insert(SessionID(event.session)).inserted: startRow(event, to: &out)
            default: break
            }
        }
        if let view { row(event.session, event.seq, event.t, event.sceneID, view.screen, "screen", to: &out) }
    }

    public static var readsProjection: Bool { true }
    /// Only the `start` rows of `--with-marks` are made from them.
    public var readsSessionStarts: Bool { withMarks }

    /// The same rows from a whole session as a store's screen projection
    /// holds it: CSV from the columns, each name and scene of a block
    /// escaped once. A part holds each session once, so no `seen` set.
    public mutating func write(projected session: ProjectedSession, to out: inout [UInt8]) {
        guard let first = session.runs.first else { return }
        let block = session.projection.blocks[Int(first.block)]
        // The id as a String only where a row is made from Strings (NDJSON, and the rows --with-marks adds).
        let id = ndjson || withMarks ? String(decoding: session.id, as: UTF8.self) : ""
        if !ndjson {
            csv.reset()
            block.withSessionID(Int(first.session)) { csv.field(bytes: $0, first: true) }
            idField.removeAll(keepingCapacity: true)
            idField += csv.bytes
        }
        if withMarks {
            row(id, block.firstSeq(Int(first.session)), Timestamp(milliseconds: block.firstMilliseconds(Int(first.session))), "", "", "session",
                to: &out)
        }
        fields.use(session.projection)
        // The first session.start's row goes where its event is: before the rows of its seq and after.
        var start = withMarks ? session.sessionStart : nil
        session.forEachRun { block, b, i in
            block.forEachRow(of: i) { seq, t, kind, name, scene in
                guard withMarks || kind == 0 else { return }
                if let event = start, seq >= event.seq {
                    startRow(event, to: &out)
                    start = nil
                }
                if ndjson {
                    row(id, seq, Timestamp(milliseconds: t), block.sceneNames[scene], block.names[name],
                        ScreenProjectionBlock.kinds[kind].rawValue, to: &out)
                } else {
                    appendCSVRow(seq, t, fields.scene(b, block, scene), fields.name(b, block, name), kind, to: &out)
                }
            }
        }
        if let event = start { startRow(event, to: &out) }
    }

    /// One CSV row read from the columns, put together in a buffer of its
    /// own and appended at once: appending its six parts one by one cost
    /// more than making them.
    private mutating func appendCSVRow(_ seq: Int, _ t: Int64, _ scene: [UInt8], _ name: [UInt8], _ kind: Int,
                                       to out: inout [UInt8]) {
        let kindText = withMarks ? ScreenProjectionBlock.kinds[kind].rawValue : ""
        let size = idField.count + scene.count + name.count + kindText.utf8.count + 56   // seq ≤ 20, t 24, commas, newline
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { row in
            var n = 0
            func put<Part: Collection<UInt8>>(_ part: Part) {
                n += UnsafeMutableBufferPointer(rebasing: row[n...]).initialize(fromContentsOf: part)
            }
            func comma() {
                row[n] = 0x2C
                n += 1
            }
            put(idField)
            comma()
            // The seq's digits, from the last.
            var digits = 1, rest = seq.magnitude
            while rest >= 10 { rest /= 10; digits += 1 }
            if seq < 0 { row[n] = UInt8(ascii: "-"); n += 1 }
            rest = seq.magnitude
            for k in stride(from: n + digits - 1, through: n, by: -1) {
                row[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            n += digits
            comma()
            times.write(Timestamp(milliseconds: t), to: UnsafeMutableRawPointer(row.baseAddress! + n))
            n += 24
            comma()
            put(scene)
            comma()
            put(name)
            if withMarks {
                comma()
                put(kindText.utf8)
            }
            row[n] = 0x0A
            out.append(contentsOf: UnsafeBufferPointer(rebasing: row[..<(n + 1)]))
        }
    }

    /// The `start` row of a `session.start` event: its canonical line.
    private mutating func startRow(_ event: Event, to out: inout [UInt8]) {
        scratch.reset()
        scratch.write(event)
        row(event.session, event.seq, event.t, event.sceneID, String(decoding: scratch.bytes, as: UTF8.self), "start", to: &out)
    }

    private mutating func row(_ session: String, _ seq: Int, _ t: Timestamp, _ scene: String, _ screen: String, _ kind: String,
                              to out: inout [UInt8]) {
        if ndjson {
            scratch.reset()
            var object: [String: JSONValue] = [
                "session": .string(session), "seq": .number(String(seq)),
                "t": .string(t.rfc3339), "scene": .string(scene), "screen": .string(screen),
            ]
            if withMarks { object["kind"] = .string(kind) }
            scratch.write(object: object)
            out += scratch.bytes
            out.append(0x0A)
        } else {
            csv.reset()
            csv.field(session, first: true)
            csv.field(seq, first: false)
            scratch.reset()
            t.appendRFC3339(to: &scratch.bytes)
            scratch.bytes.withUnsafeBufferPointer { csv.field(bytes: $0, first: false) }
            csv.field(scene, first: false)
            csv.field(screen, first: false)
            if withMarks { csv.field(kind, first: false) }
            csv.endRow()
            out += csv.bytes
        }
    }
}

/// The names and scenes of the screen-projection blocks being read, each
/// made a CSV field (``CSVWriter``) on first use.
struct ProjectionCSVFields {
    private var owner: ScreenProjectionBlocks?
    private var names: [[[UInt8]?]] = []
    private var scenes: [[[UInt8]?]] = []
    private var csv = CSVWriter()

    /// Forgets the fields when `projection` is not the blocks they are of.
    mutating func use(_ projection: ScreenProjectionBlocks) {
        guard owner !== projection else { return }
        owner = projection
        names = projection.blocks.map { Array(repeating: nil, count: $0.names.count) }
        scenes = projection.blocks.map { Array(repeating: nil, count: $0.sceneNames.count) }
    }

    mutating func name(_ b: Int, _ block: ScreenProjectionBlock, _ i: Int) -> [UInt8] {
        if let field = names[b][i] { return field }
        let field = make(block.names[i])
        names[b][i] = field
        return field
    }

    mutating func scene(_ b: Int, _ block: ScreenProjectionBlock, _ i: Int) -> [UInt8] {
        if let field = scenes[b][i] { return field }
        let field = make(block.sceneNames[i])
        scenes[b][i] = field
        return field
    }

    private mutating func make(_ text: String) -> [UInt8] {
        csv.reset()
        csv.field(text, first: true)
        return csv.bytes
    }
}
