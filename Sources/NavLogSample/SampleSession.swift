/// One synthetic session of a recipe app, produced one event at a time.
///
/// A session is a small simulation: a user on a phone or an iPad opens the
/// app, browses categories and recipes, searches, opens sheets, follows deep
/// links, sometimes adds to the cart and buys, and leaves. The simulation
/// keeps its own picture of every scene (``SampleSceneModel``) so that each
/// choice makes sense in the state the events have built; anomalies occur
/// only where the session planned one. Memory use does not grow with the
/// number of events.
///
/// ```swift
/// let generator = SampleGenerator(SampleGenerator.Options(sessions: 10, seed: 7))
/// for event in generator.session(at: 3) { print(event.canonicalLine) }
/// ```
///
/// Get sessions from a ``SampleGenerator``. The same options, seed and index
/// give the same events on every platform.
public struct SampleSession: IteratorProtocol, Sequence {
    /// The session id, e.g. `s-000042`.
    public let id: String
    /// The session's position in its generator, from 0.
    public let index: Int
    /// The time of its `session.start`.
    public let start: Timestamp
    /// How many events the session has.
    public let eventCount: Int

    /// How far the user is willing to go in the funnel: only look around
    /// (categories and searches, no recipe of their own accord), read
    /// recipes, fill a cart, or buy.
    enum Intent { case look, browse, addToCart, purchase }

    /// Steps that build the main scene right after `session.start`.
    enum SetupStep {
        case restore, layout(SizeClass), tabsDefine([String]), hide(String), select(String)
        /// The tab model of iOS 18 and later (``SampleGenerator/Options/ios18Tabs``).
        case layoutPresenting(SizeClass, TabPresentation), padTabsWithSections, customize([String], hidden: [String])
        case splitVisibility(SplitVisibility)
    }

    /// How long before an event, after the previous one.
    enum Gap {
        /// The user looks and decides: 0.3–20 s.
        case think
        /// The app follows up on the same interaction: 1–40 ms.
        case quick
        /// Navigation caused by a deep link: 2–60 ms.
        case caused
        /// The app was in the background: 15 s–5 min.
        case background
    }

    /// What the user does next.
    enum Action {
        case push, pop(Int), popToRoot, continueCooking
        /// Tabs by index in the scene's tab order / hidden list.
        case selectTab(Int), showTab(Int)
        case present(SampleCatalog.ModalID), dismiss, discardDraft, share, purchase
        case addToCart, favorite
        case sidebar, content, multiSelect, clearContent, detailSection, splitVisibility
        case layout, deepLink, background, openScene, closeScene
        case anomaly(AnomalyKind)
    }

    /// The most events one action emits (a deep link and what it causes).
    static let maxActionCost = 7

    // MARK: Profile, fixed at the start

    let options: SampleGenerator.Options
    let isPad: Bool
    let layout: SampleSceneModel.Layout
    let intent: Intent
    let endsWithEnd: Bool
    let multiWindow: Bool
    let writesMainSplit: Bool
    let favorites: [Int]

    // MARK: Simulation state

    var random: SeededRandom
    var now: Int64
    var seq = 0
    /// The events of the action in progress not yet handed out.
    var out: [Event] = []
    /// What is left of building the main scene.
    var setup: [SetupStep] = []
    /// `main`, and `scene-2` in multi-window iPad sessions.
    var scenes: [SampleSceneModel]
    /// The index in `scenes` of the scene the user works in.
    var active = 0
    var secondSceneOpen = false
    var ended = false
    /// The app went to the background; the next event brings it back.
    var backgrounded = false
    /// The app was launched by a deep link, which comes right after setup.
    var launchedByLink: Bool
    /// The anomaly this session will make when it gets the chance.
    var plannedAnomaly: AnomalyKind?
    /// Recipe indices added to the cart and not yet bought.
    var cart: [Int] = []
    var purchased = false
    /// The recipe the cook-mode cover steps through.
    var cookingRecipe = 0
    /// The choices for the next action (a buffer reused between actions).
    var candidates: [(action: Action, weight: Int)] = []

    /// Anomalies the session made on purpose, by kind.
    var plannedAnomalies: [AnomalyKind: Int] = [:]
    /// Anomalies its own scene model recorded, by kind (equal to
    /// ``plannedAnomalies`` unless the simulation is wrong).
    var modelAnomalies: [AnomalyKind: Int] = [:]

    /// The session's own picture of every open scene (what a projection of
    /// the events so far should give), with each scene's visible screen.
    var modelScenes: [String: (state: SceneState, screen: String)] {
        guard seq > 0 else { return [:] }
        var out = ["main": (scenes[0].restoreState.state, scenes[0].screen)]
        if secondSceneOpen { out["scene-2"] = (scenes[1].restoreState.state, scenes[1].screen) }
        return out
    }

    init(index: Int, id: String, options: SampleGenerator.Options, spacing: Int64) {
        self.index = index
        self.id = id
        self.options = options
        var random = SeededRandom(seed: SeededRandom.derive(options.seed, stream: UInt64(index)))
        let startMillis = options.start.milliseconds + Int64(index) * spacing + random.int64(in: 0...(spacing - 1))
        start = Timestamp(milliseconds: startMillis)
        now = startMillis
        eventCount = options.heavyTailedLengths ? Self.heavyTailedLength(&random) : random.int(in: options.eventsPerSession)
        isPad = random.percent(28)
        layout = isPad ? (random.percent(50) ? .split : .tabsWithSplit) : .tabs
        multiWindow = isPad && random.percent(30)
        writesMainSplit = random.percent(50)
        let r = random.int(below: 100)
        intent = r < 22 ? .look : r < 55 ? .browse : r < 82 ? .addToCart : .purchase
        var ends = !random.percent(4)
        if random.percent(12) {
            let kinds: [AnomalyKind] = [.popUnderflow, .dismissEmpty, .dismissUnknown, .presentDuplicate, .selectHidden, .afterEnd]
            let kind = random.pick(kinds)
            plannedAnomaly = kind
            if kind == .afterEnd { ends = true }
        }
        endsWithEnd = ends
        launchedByLink = random.percent(10)
        var favorites: [Int] = []
        for _ in 0..<3 { favorites.append(random.int(below: SampleCatalog.recipes.count)) }
        self.favorites = favorites
        let restored = random.percent(8)

        var scenes = [SampleSceneModel(id: "main", field: multiWindow ? "main" : nil, layout: layout)]
        if multiWindow { scenes.append(SampleSceneModel(id: "scene-2", field: "scene-2", layout: layout)) }
        self.scenes = scenes

        if options.screens != nil {
            setup = []
            launchedByLink = false
        } else if restored {
            setup = [.restore]
        } else {
            switch layout {
            case .tabs:
                setup = [.layout(.compact), .tabsDefine(SampleCatalog.phoneTabs)]
                if random.percent(10) { setup.append(.hide("favorites")) }
                setup.append(.select("home"))
            case .split:
                setup = [.layout(.regular), .splitVisibility(random.percent(60) ? .all : .automatic)]
            case .tabsWithSplit where options.ios18Tabs:
                setup = [.layoutPresenting(.regular, .sidebar), .padTabsWithSections, .select(random.percent(50) ? "browse" : "home")]
                if random.percent(60) {
                    // The user moved Favorites up and hid Settings (a TabViewCustomization kept in @AppStorage).
                    setup.append(.customize(["favorites", "home", "browse", "search", "settings"], hidden: ["settings"]))
                }
            case .tabsWithSplit:
                setup = [.layout(.regular), .tabsDefine(SampleCatalog.padTabs), .select(random.percent(50) ? "browse" : "home")]
            }
        }
        self.random = random
        out.reserveCapacity(Self.maxActionCost)
        candidates.reserveCapacity(32)
    }

    // MARK: Iterating

    /// The next event, or `nil` after the last one.
    public mutating func next() -> Event? {
        if out.isEmpty {
            step()
            out.reverse()  // handed out from the end, moved rather than copied
        }
        return out.popLast()
    }

    /// Emits the next action's events into `out`, or nothing at the end.
    mutating func step() {
        if seq == 0 { return startSession() }
        let remaining = eventCount - seq
        guard remaining > 0 else { return }
        if ended {
            // A late event after session.end (the planned after-end anomaly).
            guard plannedAnomaly == .afterEnd else { return }
            plannedAnomaly = nil
            plannedAnomalies[.afterEnd, default: 0] += 1
            return emit(.other(type: "app.background"), gap: .think)
        }
        let reserve = (endsWithEnd ? 1 : 0) + (plannedAnomaly == .afterEnd ? 1 : 0)
        if remaining <= reserve { return emit(.sessionEnd, gap: .think) }
        let budget = remaining - reserve
        if !setup.isEmpty { return setUp(setup.removeFirst()) }
        if backgrounded {
            backgrounded = false
            return emit(.other(type: "app.foreground"), gap: .background, extra: ["coldStart": .bool(false)])
        }
        if launchedByLink {
            launchedByLink = false
            if budget >= Self.maxActionCost { return deepLink() }
        }
        if let screens = options.screens { return flow(over: screens) }
        if secondSceneOpen, random.percent(15) { active = 1 - active }
        act(budget: budget)
    }

    mutating func startSession() {
        let versions = options.appVersions
        var weights: [Int] = []
        for i in versions.indices { weights.append(i + 1) }
        let version = versions[random.weightedIndex(weights)]
        let models = isPad ? SampleCatalog.padModels : SampleCatalog.phoneModels
        let systems = isPad ? SampleCatalog.padSystems : SampleCatalog.phoneSystems
        let model = models[random.weightedIndex(Array(SampleCatalog.deviceWeights.prefix(models.count)))]
        let system = systems[random.weightedIndex(Array(SampleCatalog.deviceWeights.prefix(systems.count)))]
        let app: [String: JSONValue] = ["version": .string(version), "build": .string(Self.build(of: version))]
        let device: [String: JSONValue] = [
            "idiom": .string(isPad ? "pad" : "phone"), "os": .string(system), "model": .string(model),
        ]
        var meta: [String: JSONValue]?
        if random.percent(50) { meta = ["locale": .string(random.pick(SampleCatalog.locales))] }
        emit(.sessionStart(app: app, device: device), scene: nil, gap: nil, meta: meta)
    }

    /// A stable build number for an app version (FNV-1a of its text).
    static func build(of version: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in version.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(1000 + hash % 9000)
    }

    mutating func setUp(_ step: SetupStep) {
        switch step {
        case .restore:
            let (state, json) = restoredMainScene().restoreState
            emit(.stateRestore(state: state, json: json), gap: .quick)
        case .layout(let sizeClass): emit(.layoutChange(sizeClass: sizeClass), gap: .quick)
        case .tabsDefine(let tabs): emit(.tabsDefine(tabs: tabs), gap: .quick)
        case .hide(let tab): emit(.tabVisibility(tab: tab, hidden: true), gap: .quick)
        case .select(let tab): emit(.tabSelect(tab: tab), gap: .quick)
        case .splitVisibility(let v): emit(.splitVisibility(split: "main", visibility: v), gap: .quick)
        case .layoutPresenting(let sizeClass, let presentation):
            emit(.layoutChange(sizeClass: sizeClass, tabPresentation: presentation), gap: .quick)
        case .padTabsWithSections: emit(Self.padTabsWithSections, gap: .quick)
        case .customize(let order, let hidden): emit(.tabsCustomize(order: order, hidden: hidden), gap: .think)
        }
    }

    /// The iPad's `tabs.define` with the tab model of iOS 18 and later.
    static let padTabsWithSections = EventKind.tabsDefine(
        tabs: SampleCatalog.padTabs, sections: SampleCatalog.padSections, searchTab: SampleCatalog.padSearchTab)

    /// Whether this session uses the tab model of iOS 18 and later.
    var usesIOS18Tabs: Bool { options.ios18Tabs && isPad && layout != .split }

    /// A plausible main scene from an earlier launch, for `state.restore`.
    mutating func restoredMainScene() -> SampleSceneModel {
        var m = SampleSceneModel(id: "main", field: scenes[0].field, layout: layout)
        _ = m.apply(.layoutChange(sizeClass: isPad ? .regular : .compact, tabPresentation: usesIOS18Tabs ? .sidebar : nil))
        let c = pickCategory()
        let r = pickRecipe(in: c)
        let category = SampleCatalog.categories[c].value
        let recipe = SampleCatalog.recipes[r].value
        if layout != .split {
            let tabs = layout == .tabs ? SampleCatalog.phoneTabs : SampleCatalog.padTabs
            _ = m.apply(usesIOS18Tabs ? Self.padTabsWithSections : .tabsDefine(tabs: tabs))
            let depth = random.int(in: 0...(intent == .look ? 1 : 3))
            let home = [category, recipe, SampleCatalog.steps[0]]
            _ = m.apply(.stackSet(stack: "home", path: Array(home.prefix(depth))))
            if random.percent(40) {
                let search = SampleCatalog.searches[random.int(below: SampleCatalog.searches.count)]
                _ = m.apply(.stackSet(stack: "search", path: [search.value]))
            }
            _ = m.apply(.tabSelect(tab: random.percent(70) ? "home" : random.pick(["search", "favorites"])))
        }
        if let splitID = m.splitID, layout == .split || random.percent(60) {
            let split: String? = splitID
            _ = m.apply(.splitSelect(split: split, column: .sidebar, selection: [category]))
            if intent != .look, random.percent(70) {
                _ = m.apply(.splitSelect(split: split, column: .content, selection: [recipe]))
                if random.percent(40) {
                    let k = random.int(in: 1...SampleCatalog.recipes[r].steps)
                    _ = m.apply(.stackSet(stack: splitID, path: Array(SampleCatalog.steps.prefix(k))))
                }
            }
            _ = m.apply(.splitVisibility(split: splitID, visibility: random.percent(70) ? .all : .doubleColumn))
        }
        return m
    }

    // MARK: Emitting

    /// Appends one event, applying it to the scene model. `scene` is an
    /// index into `scenes`; `nil` writes no scene field (session-level
    /// events, which the projection reads as scene `main`).
    mutating func emit(
        _ kind: EventKind, scene: Int?, gap: Gap?, cause: Int? = nil,
        meta: [String: JSONValue]? = nil, extra: [String: JSONValue] = [:]
    ) {
        if let gap { now += millis(gap) }
        seq += 1
        let s = scene ?? 0
        let event = Event(
            session: id, seq: seq, t: Timestamp(milliseconds: now),
            scene: scene.flatMap { scenes[$0].field }, kind: kind, cause: cause, meta: meta, extra: extra)
        switch kind {
        case .sceneOpen: scenes[s].reset()
        case .sceneClose: scenes[s].reset()
        default:
            if let anomaly = scenes[s].apply(kind) { modelAnomalies[anomaly, default: 0] += 1 }
        }
        if ended { modelAnomalies[.afterEnd, default: 0] += 1 }
        if case .sessionEnd = kind { ended = true }
        out.append(event)
    }

    /// Emits into the active scene.
    mutating func emit(
        _ kind: EventKind, gap: Gap, cause: Int? = nil,
        meta: [String: JSONValue]? = nil, extra: [String: JSONValue] = [:]
    ) {
        emit(kind, scene: active, gap: gap, cause: cause, meta: meta, extra: extra)
    }

    mutating func millis(_ gap: Gap) -> Int64 {
        switch gap {
        case .think:
            let r = random.int(below: 100)
            if r < 55 { return random.int64(in: 300...2_500) }
            if r < 85 { return random.int64(in: 2_500...8_000) }
            return random.int64(in: 8_000...20_000)
        case .quick: return random.int64(in: 1...40)
        case .caused: return random.int64(in: 2...60)
        case .background: return random.int64(in: 15_000...300_000)
        }
    }

    // MARK: Formatting

    /// `1234` cents → `"12.34"`.
    static func decimal(cents: Int) -> String {
        let fraction = cents % 100
        return String(cents / 100) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }
}
