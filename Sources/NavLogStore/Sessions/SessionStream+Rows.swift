import Dispatch
import NavLogCore

extension SessionStream {
    /// Logs up to this size (bytes on disk) are rendered into a buffer ahead of their turn.
    static let bufferedLogBytes: Int64 = 4 << 20
    /// The most sources rendered ahead of the one being written.
    static let aheadLimit = 32

    /// Writes rows for every event of the stream, in source order, as if the
    /// sources were read one by one: each worker renders a whole small log,
    /// or a store part read from its screen projection (when `Rows` reads
    /// it), into a buffer handed to `output` once every earlier source has been;
    /// a large log or an NDJSON file is streamed by its worker when its turn
    /// comes. At most ``aheadLimit`` sources are rendered ahead of the one
    /// being written, so memory stays bounded. After a failing source
    /// (its rows up to the failure written) nothing more is written, and its
    /// failure is thrown.
    ///
    /// - Parameters:
    ///   - redactor: applied to each event before it is projected and written.
    ///   - output: called with the next bytes, in order, from one thread at a time.
    ///   - make: a fresh row writer, for each source.
    public func writeRows<Rows: ExportRows>(
        redactor: EventRedactor?, to output: @escaping @Sendable ([UInt8]) -> Void,
        _ make: @escaping @Sendable () -> Rows
    ) throws(SessionStreamError) {
        let shared = RowTurns(sources: sources, output: output)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let scratch = LogScanScratch()
            // The size of the last part rendered: the parts of a store are of about one size.
            var lastPart = 0
            while let (index, source) = shared.take() {
                var rows = make()
                var out: [UInt8] = []
                if redactor == nil, Rows.readsProjection, case .segments(let part) = source,
                   let set = part.projection, let projection = set.shared(withTemplates: rows.readsSessionStarts) {
                    // A part of a store read from its screen projection: rendered ahead, in memory.
                    out.reserveCapacity(lastPart + lastPart / 8)
                    set.forEachProjectedSession(of: part, projection) { session in rows.write(projected: session, to: &out) }
                    lastPart = out.count
                    shared.deposit(index, out, failure: nil)
                } else if case .log = source, source.fileSize <= Self.bufferedLogBytes {
                    do throws(SessionStreamError) {
                        try events(of: source, redactor: redactor, scratch: scratch) { rows.write($0, view: $1, to: &out) }
                        shared.deposit(index, out, failure: nil)
                    } catch {
                        shared.deposit(index, out, failure: error)
                    }
                } else {
                    guard shared.waitForTurn(index) else { continue }
                    do throws(SessionStreamError) {
                        try events(of: source, redactor: redactor, scratch: scratch) { event, view in
                            rows.write(event, view: view, to: &out)
                            if out.count >= 1 << 16 {
                                output(out)
                                out.removeAll(keepingCapacity: true)
                            }
                        }
                        output(out)
                        shared.finishTurn(index, failure: nil)
                    } catch {
                        output(out)
                        shared.finishTurn(index, failure: error)
                    }
                }
            }
        }
        if let failure = shared.failure { throw failure }
    }

    /// Every event of one source, redacted when asked, with the screen view it emitted.
    private func events(of source: SessionSource, redactor: EventRedactor?, scratch: LogScanScratch,
                        _ body: (Event, ScreenView?) -> Void) throws(SessionStreamError) {
        var states: [SessionID: NavigationProjector] = [:]
        var views: [ScreenView] = []
        if case .ndjson(let path) = source {
            // A session's state goes at its last line: memory follows the sessions under way.
            try forEachNDJSONEvent(path) { original, endsSession in
                let event = redactor.map { $0.redact(original) } ?? original
                let id = SessionID(event.session)
                if endsSession {
                    var state = states.removeValue(forKey: id) ?? NavigationProjector(session: event.session)
                    state.apply(event, screenViews: &views)
                } else {
                    states[id, default: NavigationProjector(session: event.session)].apply(event, screenViews: &views)
                }
                body(event, views.last)
                views.removeAll(keepingCapacity: true)
            }
            return
        }
        // A segment store's sessions come one after another: one state at a time.
        var oneAtATime = false
        if case .segments = source { oneAtATime = true }
        try forEachEvent(in: source, scratch: scratch) { original in
            let event = redactor.map { $0.redact(original) } ?? original
            let id = SessionID(event.session)
            if oneAtATime, states[id] == nil { states.removeAll(keepingCapacity: true) }
            states[id, default: NavigationProjector(session: event.session)].apply(event, screenViews: &views)
            body(event, views.last)
            views.removeAll(keepingCapacity: true)
        }
    }
}
