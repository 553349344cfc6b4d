import NavLogCore
import NavLogSample
import Testing

@Suite("Import: React Navigation state snapshots")
struct ReactNavigationImportTests {
    @Test func theFixtureBecomesTheEventsBetweenSnapshots() {
        var converter = ReactNavigationConverter()
        let (events, rejected) = convertLines(&converter, importFixture("react-navigation.ndjson").split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        #expect(rejected.isEmpty)
        let pie = RouteValue(type: "Recipe", id: "apple-pie", data: .object(["id": .string("apple-pie")]))
        let compose = RouteValue(type: "Compose", data: .object(["draft": .number("3")]))
        #expect(events.filter { $0.session == "rn-1" }.map(\.kind) == [
            .tabsDefine(tabs: ["Home", "Search", "Profile"]),
            .stackPush(stack: "Home", value: RouteValue(type: "Feed")),
            .tabSelect(tab: "Home"),
            .stackPush(stack: "Home", value: pie),
            .tabSelect(tab: "Search"),
            .stackPop(stack: "Home", count: 1),
            .tabSelect(tab: "Home"),
        ])
        #expect(events.filter { $0.session == "rn-2" }.map(\.kind) == [
            .tabsDefine(tabs: ["Home", "Search"]),
            .stackPush(stack: "Compose-1", value: compose),
            .tabSelect(tab: "Home"),
            .modalPresent(modal: "Compose-1", style: .sheet),
            .modalDismiss(modal: "Compose-1"),
            .stackPopToRoot(stack: "Compose-1"),
            .tabSelect(tab: "Search"),
        ])
        #expect(events.first?.t.rfc3339 == "2026-11-20T10:00:00.000Z")
        let folded = foldBySession(events)
        #expect(folded["rn-1"]!.views.map(\.screen) == ["Feed", "Recipe/apple-pie", "tab:Search", "Feed"])
        #expect(folded["rn-2"]!.views.map(\.screen) == ["tab:Home", "Compose", "tab:Home", "tab:Search"])
    }

    /// Generated sessions of random snapshots: after each one, the events so
    /// far give the scene that snapshot alone gives (stacks emptied on the
    /// way aside), and the visible screen is the snapshot's focused route.
    @Test func randomSnapshotSequencesProjectToTheirLastSnapshot() throws {
        var random = SeededRandom(seed: 42)
        for session in 0..<60 {
            var converter = ReactNavigationConverter()
            var events: [Event] = []
            for k in 0..<25 {
                let state = Self.randomState(&random)
                let line = JSONValue.object([
                    "session": .string("s\(session)"), "t": .number(String(1_795_168_800_000 + k * 1000)), "state": state,
                ]).canonicalText
                try converter.convert(line, record: k + 1, into: &events)
                let folded = NavigationState(session: "s\(session)", folding: events.enumerated().map { i, e in
                    var e = e; e.seq = i + 1; return e
                })
                let direct = NavigationState(session: "s\(session)", folding: try ReactNavigationScene(state: state).events(from: ReactNavigationScene()).enumerated().map { i, kind in
                    Event(session: "s\(session)", seq: i + 1, t: Timestamp(milliseconds: 0), kind: kind)
                })
                var got = folded.scenes["main"] ?? SceneState()
                var want = direct.scenes["main"] ?? SceneState()
                got.stacks = got.stacks.filter { !$0.value.isEmpty }
                want.stacks = want.stacks.filter { !$0.value.isEmpty }
                #expect(got == want, "session \(session) snapshot \(k + 1): \(line)")
                #expect(got.screen == Self.focusedScreen(state), "session \(session) snapshot \(k + 1)")
                if got != want { return }
            }
        }
    }

    static let names = ["Feed", "Recipe", "Search", "Settings"]

    static func route(_ random: inout SeededRandom, name: String? = nil, key: String? = nil, state: JSONValue? = nil) -> JSONValue {
        let name = name ?? names[random.int(below: names.count)]
        var r: [String: JSONValue] = ["name": .string(name), "key": .string(key ?? "\(name)-\(random.int(below: 1000))")]
        if random.int(below: 3) == 0 { r["params"] = .object(["id": .number(String(random.int(below: 3)))]) }
        if let state { r["state"] = state }
        return .object(r)
    }

    static func stack(_ random: inout SeededRandom) -> JSONValue {
        let routes = (0..<(1 + random.int(below: 3))).map { _ in route(&random) }
        return .object(["type": .string("stack"), "index": .number(String(routes.count - 1)), "routes": .array(routes)])
    }

    static func tabs(_ random: inout SeededRandom) -> JSONValue {
        let tabNames = ["Home", "Search", "Profile"]
        let routes = tabNames.map { name in
            route(&random, name: name, key: name, state: random.int(below: 3) == 0 ? nil : stack(&random))
        }
        return .object(["type": .string(random.int(below: 4) == 0 ? "drawer" : "tab"), "index": .number(String(random.int(below: 3))),
                        "routeNames": .array(tabNames.map { .string($0) }), "routes": .array(routes)])
    }

    static func randomState(_ random: inout SeededRandom) -> JSONValue {
        switch random.int(below: 3) {
        case 0: return stack(&random)
        case 1: return tabs(&random)
        default:
            var routes = (0..<random.int(below: 2)).map { _ in route(&random) }
            routes.append(route(&random, name: "Main", key: "Main", state: tabs(&random)))
            for m in 0..<random.int(below: 3) { routes.append(route(&random, name: "Modal", key: "M\(m)")) }
            return .object(["type": .string("stack"), "index": .number(String(routes.count - 1)), "routes": .array(routes)])
        }
    }

    /// What React Navigation shows: the focused route, followed down nested navigators.
    static func focusedScreen(_ state: JSONValue) -> String {
        guard case .object(let nav) = state, case .array(let routes)? = nav["routes"], case .number(let i)? = nav["index"],
              case .object(let route) = routes[Int(i)!] else { return "?" }
        if let nested = route["state"] { return focusedScreen(nested) }
        guard case .string(let name)? = route["name"] else { return "?" }
        let isTab = nav["type"] == .string("tab") || nav["type"] == .string("drawer")
        if isTab { return "tab:" + name }
        if case .object(let p)? = route["params"], case .number(let id)? = p["id"] { return name + "/" + id }
        return name
    }

    @Test(arguments: [
        (#"{"t":"2026-11-20T10:00:00Z","state":{"routes":[{"name":"A"}]}}"#, #"missing required field "session""#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"","state":{"routes":[{"name":"A"}]}}"#, #"field "session": must not be empty"#),
        (#"{"session":"s","state":{"routes":[{"name":"A"}]}}"#, #"missing required field "t""#),
        (#"{"t":"yesterday","session":"s","state":{"routes":[{"name":"A"}]}}"#, #"field "t": not an RFC 3339 timestamp: "yesterday""#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s"}"#, #"missing required field "state""#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[]}}"#, #"field "state.routes": empty; a navigator has at least one route"#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"index":1,"routes":[{"name":"A"}]}}"#, #"field "state.index": 1 is outside routes (0…0)"#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[{"key":"A-1"}]}}"#, #"missing required field "state.routes[0].name""#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[{"name":"A","params":[1]}]}}"#, #"field "state.routes[0].params": expected object, found array"#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[{"name":"A","state":{"type":"stack"}}]}}"#, #"missing required field "state.routes[0].state.routes""#),
        (#"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[{"name":"A"}]}"#, "invalid JSON at byte 75: unexpected end of line, expected ',' or '}'"),
        (#"[1]"#, "expected a JSON object, found array"),
    ])
    func malformedSnapshotsAreRejected(line: String, reason: String) {
        var converter = ReactNavigationConverter()
        let (events, rejected) = convertLines(&converter, [line])
        #expect(events.isEmpty)
        #expect(rejected.map(\.reason.description) == [reason])
    }

    @Test func aRejectedSnapshotLeavesTheSessionWhereItWas() {
        var converter = ReactNavigationConverter()
        let (events, rejected) = convertLines(&converter, [
            #"{"t":"2026-11-20T10:00:00Z","session":"s","state":{"routes":[{"name":"A"}]}}"#,
            #"{"t":"2026-11-20T10:00:01Z","session":"s","state":{"routes":[{"name":"A"},{"name":""}]}}"#,
            #"{"t":"2026-11-20T10:00:02Z","session":"s","state":{"routes":[{"name":"A"},{"name":"B"}]}}"#,
        ])
        #expect(rejected.map(\.line) == [2])
        #expect(events.map(\.kind) == [.stackPush(stack: "main", value: RouteValue(type: "A")),
                                       .stackPush(stack: "main", value: RouteValue(type: "B"))])
    }
}
