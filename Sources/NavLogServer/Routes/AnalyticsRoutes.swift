// Routes/: The API's routes (schemas/openapi.yaml), one file a group: uploads, sessions, analytics.

import Hummingbird
import NavLogCore
import NavLogStore

/// The reads over two sessions or all of them (schemas/openapi.yaml):
/// diff, funnel, paths — the JSON of the commands' `--json`, from the
/// same library calls.
struct AnalyticsRoutes: Sendable {
    /// The store's directory, as `serve --store` was given it.
    let store: String

    /// The most bytes of a question's JSON body.
    static let questionLimit = 64 << 10

    func add(to router: Router<BasicRequestContext>) {
        router.get("/v1/diff") { request, _ in try await diff(Query(request: request)) }
        router.get("/v1/bisect") { request, _ in try await bisect(Query(request: request)) }
        router.post("/v1/funnel") { request, _ in try await funnel(try await Self.question(request)) }
        router.post("/v1/funnel/dropoffs") { request, _ in try await dropoffs(try await Self.question(request)) }
        router.post("/v1/paths") { request, _ in try await paths(try await Self.question(request)) }
    }

    /// `GET /v1/diff?a=&b=&at=`: `navlog diff STORE STORE --session-a A --session-b B --at SPEC --json`.
    func diff(_ query: Query) async throws -> Response {
        let a = try query.required("a"), b = try query.required("b")
        let spec = try SessionRoutes.spec(query.string("at"))
        let store = self.store
        return Reply.json(try await Reply.offload {
            let sessionA = try SessionRoutes.open(store, a)
            let sessionB = try SessionRoutes.open(store, b)
            do {
                let stateA = try sessionA.state(at: spec), stateB = try sessionB.state(at: spec)
                return StateDiff(stateA, stateB).jsonValue(a: (store, stateA), b: (store, stateB), at: spec).canonicalText
            } catch { throw APIError(status: .internalServerError, message: "\(error)") }
        })
    }

    /// `GET /v1/bisect?a=&b=`: `navlog bisect STORE STORE --session-a A --session-b B --json`.
    func bisect(_ query: Query) async throws -> Response {
        let a = try query.required("a"), b = try query.required("b")
        let store = self.store
        return Reply.json(try await Reply.offload {
            let sideA = try SessionRoutes.reading { () throws(OneSessionError) in try OneSession.open(store, session: a, option: "--session-a") }
            let sideB = try SessionRoutes.reading { () throws(OneSessionError) in
                try OneSession.open(store, session: b, option: "--session-b", alongside: sideA)
            }
            let found: (DivergenceSearch, DivergenceSearch.Method)
            do { found = try OneSession.divergence(sideA, sideB, bySeq: false, context: Self.bisectContext, prepare: { _ in }) } catch {
                throw APIError(status: .internalServerError, message: "\(error)")
            }
            return found.0.jsonValue(inputs: (store, store), align: "position", method: found.1).canonicalText
        })
    }

    /// Events shown before a divergence (bisect's `--context` default).
    static let bisectContext = 5

    /// `POST /v1/funnel`: `navlog funnel STORE --step P … [--within D] [--by F] [--order O] [--exclude P …] --format json`.
    func funnel(_ question: [String: JSONValue]) async throws -> Response {
        try Self.allow(question, ["steps", "within", "by", "order", "exclude"])
        let funnel = try Self.funnel(question)
        let by = try Self.string(question, "by")
        if let by, by.isEmpty || by.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw APIError.badRequest("by: a dotted path such as app.version, got \"\(by)\"")
        }
        let path = by.map { $0.split(separator: ".").map(String.init) }
        let store = self.store
        return Reply.json(try await Reply.offload {
            let tallies = try Self.stream(store).tally { FunnelSegments(funnel: funnel, by: path, startedFrom: nil, startedTo: nil) }.tallies
            return FunnelReport(funnel: funnel, by: by, tallies: tallies).json
        })
    }

    /// `POST /v1/funnel/dropoffs`: `navlog funnel STORE --step P … [--within D] [--order O] [--exclude P …] --dropoffs K --json`,
    /// the sessions that reached exactly `reached` steps (with `reached` the number of steps: those that went all the way).
    func dropoffs(_ question: [String: JSONValue]) async throws -> Response {
        try Self.allow(question, ["steps", "within", "order", "exclude", "reached"])
        let funnel = try Self.funnel(question)
        guard let reached = try Self.integer(question, "reached", 1...Int.max) else {
            throw APIError.badRequest("reached: give how many steps the sessions reached (1 or more)")
        }
        let store = self.store
        return Reply.json(try await Reply.offload {
            try Self.stream(store).tally { FunnelDropoffs(funnel: funnel, reached: reached) }.json
        })
    }

    /// The funnel of a question: `steps`, `within`, `order`, `exclude`.
    private static func funnel(_ question: [String: JSONValue]) throws -> Funnel {
        let steps = try strings(question, "steps") ?? []
        guard !steps.isEmpty, steps.allSatisfy({ !$0.isEmpty }) else { throw APIError.badRequest("steps: give at least one step pattern") }
        let exclude = try strings(question, "exclude") ?? []
        var window: FunnelWindow?
        if let within = try string(question, "within") {
            guard !within.hasPrefix("-"), let parsed = FunnelWindow(parsing: within) else {
                throw APIError.badRequest("within: a duration such as 90s, 10m, 1h30m or 1.5s (units ms s m h d), got \(within)")
            }
            window = parsed
        }
        var order = FunnelOrder.ordered
        if let text = try string(question, "order") {
            guard let parsed = FunnelOrder(rawValue: text) else { throw APIError.badRequest("order: ordered or strict, got \(text)") }
            order = parsed
        }
        return Funnel(steps: steps.map(FunnelStep.init), window: window, order: order, exclusions: exclude.map(FunnelStep.init))
    }

    /// `POST /v1/paths`: `navlog paths STORE [--after G | --before G] [--top N] [--depth N] --format json`.
    func paths(_ question: [String: JSONValue]) async throws -> Response {
        try Self.allow(question, ["after", "before", "top", "depth"])
        let after = try Self.string(question, "after"), before = try Self.string(question, "before")
        if after != nil && before != nil { throw APIError.badRequest("give after or before, not both") }
        let top = try Self.integer(question, "top", 1...1000) ?? 10
        let depth = try Self.integer(question, "depth", 1...20) ?? 3
        let mode: ScreenPathTally.Mode
        if let after { mode = .after(GlobPattern(after)) } else if let before { mode = .before(GlobPattern(before)) } else { mode = .transitions }
        let store = self.store
        return Reply.json(try await Reply.offload {
            ScreenPathReport(try Self.stream(store).tally { ScreenPathTally(mode: mode, depth: depth) }, top: top).json
        })
    }

    /// The store's sessions, as `funnel` and `paths` read them.
    private static func stream(_ store: String) throws -> SessionStream {
        do { return try SessionStream(paths: [store]) } catch { throw APIError(status: .internalServerError, message: error.description) }
    }

    /// A question's body: one JSON object.
    static func question(_ request: Request) async throws -> [String: JSONValue] {
        let buffer = try await request.body.collect(upTo: questionLimit)
        let value: JSONValue
        do { value = try buffer.withUnsafeReadableBytes { bytes throws(EventParseError) in try JSONValue.parse(bytes) } } catch {
            throw APIError.badRequest("the body is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw APIError.badRequest("the body is not a JSON object") }
        return object
    }

    private static func allow(_ object: [String: JSONValue], _ names: Set<String>) throws {
        if let unknown = object.keys.sorted().first(where: { !names.contains($0) }) {
            throw APIError.badRequest("\(unknown): not a field of this question (\(names.sorted().joined(separator: ", ")))")
        }
    }

    private static func string(_ object: [String: JSONValue], _ name: String) throws -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw APIError.badRequest("\(name): expected a string") }
        return text
    }

    private static func strings(_ object: [String: JSONValue], _ name: String) throws -> [String]? {
        guard let value = object[name], value != .null else { return nil }
        guard case .array(let items) = value, let texts = Optional(items.compactMap(\.stringValue)), texts.count == items.count else {
            throw APIError.badRequest("\(name): expected an array of strings")
        }
        return texts
    }

    private static func integer(_ object: [String: JSONValue], _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
        guard let value = object[name], value != .null else { return nil }
        // JSON Schema's integers include 3.0: a whole number in any notation.
        guard case .number(let text) = value, let number = Double(text), number.rounded() == number,
              let n = Int(exactly: number), range.contains(n) else {
            throw APIError.badRequest("\(name): expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}
