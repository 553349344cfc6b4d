import Hummingbird
import NavLogCore
import NavLogStore

/// The reads of one store's sessions (schemas/openapi.yaml): the listing,
/// a session's summary, its state at a point, its events. Each answers
/// what the command prints, through the same library calls.
struct SessionRoutes: Sendable {
    /// The store's directory, as `serve --store` was given it.
    let store: String

    /// Sessions a listing answers when the request does not say.
    static let defaultLimit = 1000

    func add(to router: Router<BasicRequestContext>) {
        router.get("/v1/sessions") { request, _ in try await sessions(Query(request: request)) }
        router.get("/v1/session-count") { request, _ in try await count(Query(request: request)) }
        router.get("/v1/sessions/{id}") { request, context in
            try await summary(try context.parameters.require("id"))
        }
        router.get("/v1/sessions/{id}/state") { request, context in
            try await state(try context.parameters.require("id"), Query(request: request))
        }
        router.get("/v1/sessions/{id}/visible") { request, context in
            try await visible(try context.parameters.require("id"), Query(request: request))
        }
        router.get("/v1/sessions/{id}/states") { request, context in
            try await states(try context.parameters.require("id"), Query(request: request))
        }
        router.get("/v1/sessions/{id}/events") { request, context in
            try await events(try context.parameters.require("id"), Query(request: request))
        }
        router.get("/v1/sessions/{id}/replay") { request, context in
            try await replay(try context.parameters.require("id"), Query(request: request))
        }
        router.get("/v1/sessions/{id}/blame") { request, context in
            try await blame(try context.parameters.require("id"), Query(request: request))
        }
    }

    /// The listing's filter of a query: `id`, `version`, `since`, `until`.
    static func filter(_ query: Query) throws -> SessionFilter {
        var filter = SessionFilter(id: query.string("id").map(GlobPattern.init), appVersion: query.string("version").map(GlobPattern.init))
        for (name, keyPath) in [("since", \SessionFilter.since), ("until", \SessionFilter.until)] {
            guard let text = query.string(name) else { continue }
            guard let time = SessionFilter.time(text) else {
                throw APIError.badRequest("\(name): \(Timestamp.refusal(rfc3339: text))")
            }
            filter[keyPath: keyPath] = time
        }
        return filter
    }

    /// `GET /v1/session-count`: `navlog sessions STORE --count`, filtered as the listing is.
    func count(_ query: Query) async throws -> Response {
        let filter = try Self.filter(query)
        let store = self.store
        return Reply.json(try await Reply.offload {
            var counted = SessionCount()
            try SessionRoutes.list(store, filter) { counted.add($0) }
            return counted.jsonText
        })
    }

    /// `GET /v1/sessions`: `navlog sessions STORE --json`, filtered, after `after`, at most `limit` lines.
    func sessions(_ query: Query) async throws -> Response {
        let filter = try Self.filter(query)
        let after = query.string("after").map { Array($0.utf8) }
        let limit = try query.integer("limit", minimum: 1, maximum: 10_000) ?? Self.defaultLimit
        let store = self.store
        let filtering = filter
        return Reply.ndjson(try await Reply.offload {
            var out: [UInt8] = []
            var count = 0
            try SessionRoutes.list(store, filtering) { summary in
                guard count < limit else { return }
                if let after, !after.lexicographicallyPrecedes(Array(summary.id.utf8)) { return }
                count += 1
                out.append(contentsOf: summary.jsonText.utf8)
                out.append(0x0A)
            }
            return out
        })
    }

    /// `GET /v1/sessions/{id}`: the session's line of the listing.
    func summary(_ id: String) async throws -> Response {
        let store = self.store
        let line: String? = try await Reply.offload {
            var found: String?
            try SessionRoutes.list(store, SessionFilter(id: GlobPattern(id))) { summary in
                if summary.id == id { found = summary.jsonText }
            }
            return found
        }
        guard let line else { throw APIError.notFound(SessionLookupError.noSession(store: store, session: id).description) }
        return Reply.json(line)
    }

    /// `GET /v1/sessions/{id}/state?at=SPEC`: `navlog state STORE --session ID --at SPEC --json`.
    func state(_ id: String, _ query: Query) async throws -> Response {
        let spec = try Self.spec(query.string("at"))
        let store = self.store
        return Reply.json(try await Reply.offload {
            let session = try SessionRoutes.open(store, id)
            do { return try session.state(at: spec).jsonText } catch { throw APIError(status: .internalServerError, message: "\(error)") }
        })
    }

    /// `GET /v1/sessions/{id}/visible?at=SPEC`: where each scene's visible
    /// screen is in the state `state` answers for the same point (what the viewer highlights).
    func visible(_ id: String, _ query: Query) async throws -> Response {
        let spec = try Self.spec(query.string("at"))
        let store = self.store
        return Reply.json(try await Reply.offload {
            let session = try SessionRoutes.open(store, id)
            do { return try session.state(at: spec).visiblePlacesJSON.canonicalText } catch {
                throw APIError(status: .internalServerError, message: "\(error)")
            }
        })
    }

    /// The most states one `states` request answers.
    static let statesLimit = 1000

    /// `GET /v1/sessions/{id}/states?from=N&to=M`: for each event with a seq
    /// from N to M, `{"state":…,"visible":…}`, the answers of `state` and
    /// `visible` at its seq, one NDJSON line each, from one fold. At most
    /// ``statesLimit`` seqs: `to` is cut to `from` + 999; `to` before `from` is none.
    func states(_ id: String, _ query: Query) async throws -> Response {
        let from = try query.integer("from", minimum: 1) ?? 1
        let (limit, overflow) = from.addingReportingOverflow(Self.statesLimit - 1)
        let to = min(try query.integer("to", minimum: 1) ?? .max, overflow ? .max : limit)
        let store = self.store
        return Reply.ndjson(try await Reply.offload {
            let session = try SessionRoutes.open(store, id)
            var writer = CanonicalWriter()
            do {
                try session.states(from: from, to: to) { state in
                    writer.write(.object(["state": state.jsonValue, "visible": state.visiblePlacesJSON]))
                    writer.bytes.append(0x0A)
                }
            } catch { throw APIError(status: .internalServerError, message: "\(error)") }
            return writer.bytes
        })
    }

    /// `GET /v1/sessions/{id}/events?from=&to=`: `navlog cat STORE --session ID --from N --to N`.
    func events(_ id: String, _ query: Query) async throws -> Response {
        let from = try query.integer("from") ?? 1
        let to = try query.integer("to") ?? .max
        let store = self.store
        return Reply.ndjson(try await Reply.offload {
            let session = try SessionRoutes.open(store, id)
            var out: [UInt8] = []
            var parser = EventLineParser()
            do {
                try session.forEachLine { line throws(SegmentStoreError) in
                    if from > 1 || to < .max {
                        guard let event = try? parser.parse(line) else {
                            throw .invalidEvent(session: id, seq: 0, reason: "a stored line does not parse as an event")
                        }
                        guard event.seq >= from && event.seq <= to else { return }
                    }
                    out.append(contentsOf: line)
                    out.append(0x0A)
                }
            } catch { throw APIError(status: .internalServerError, message: "\(error)") }
            return out
        })
    }

    /// `GET /v1/sessions/{id}/replay?from=&to=`: `navlog replay STORE --session ID --from N --to N --json`.
    func replay(_ id: String, _ query: Query) async throws -> Response {
        let range = ReplayRange(from: try query.integer("from"), to: try query.integer("to"))
        let store = self.store
        return Reply.ndjson(try await Reply.offload {
            let events = try Self.reading { () throws(OneSessionError) in try OneSession.open(store, session: id).events().events }
            var writer = CanonicalWriter()
            range.fold(events) { step in
                writer.write(step.jsonValue)
                writer.bytes.append(0x0A)
            }
            return writer.bytes
        })
    }

    /// `GET /v1/sessions/{id}/blame?at=SPEC`: `navlog blame STORE --session ID --at SPEC --json`.
    func blame(_ id: String, _ query: Query) async throws -> Response {
        let spec = try Self.spec(query.string("at"))
        let store = self.store
        return Reply.json(try await Reply.offload {
            try Self.reading { () throws(OneSessionError) in
                try OneSession.open(store, session: id).blame(at: spec).jsonValue(at: spec).canonicalText
            }
        })
    }

    /// Runs a read of one session: a session the store does not hold is a
    /// 404, any other failure a 500 saying what.
    static func reading<T>(_ read: () throws(OneSessionError) -> T) throws -> T {
        do { return try read() } catch {
            if case .lookup(.noSession) = error { throw APIError.notFound(error.description) }
            throw APIError(status: .internalServerError, message: error.description)
        }
    }

    /// A point in a session, as `--at` reads it (absent: the end).
    static func spec(_ text: String?) throws -> StateSpec {
        do { return try StateSpec(parsing: text ?? "end") } catch { throw APIError.badRequest("at: \(error)") }
    }

    /// Session `id` of the store: 404 when it holds none of it.
    static func open(_ store: String, _ id: String) throws -> StoredSession {
        let found: SessionLookup.Found
        do { found = try SessionLookup.open(store: store, session: id) } catch {
            if case .noSession = error { throw APIError.notFound(error.description) }
            throw APIError(status: .internalServerError, message: error.description)
        }
        guard case .segments(let session) = found else {
            throw APIError(status: .internalServerError, message: "\(store): not a segment store")
        }
        return session
    }

    /// The store's sessions that `filter` keeps, in id order.
    static func list(_ store: String, _ filter: SessionFilter, _ body: (SessionSummary) -> Void) throws {
        do {
            try SessionListing.list(SessionListing.sources(ofStore: store), filter: filter, body)
        } catch { throw APIError(status: .internalServerError, message: error.description) }
    }
}
