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
        case selectTab(String), showTab(String)
        case present(SampleCatalog.Modal), dismiss, discardDraft, share, purchase
        case addToCart, favorite
        case sidebar, content, multiSelect, clearContent, detailSection, splitVisibility
        case layout, deepLink, background, openScene, closeScene
        case anomaly(AnomalyKind)
    }

    /// The most events one action emits (a deep link and what it causes).
    static let maxActionCost = 7

    // MARK: Profile, fixed at the start

    private let options: SampleGenerator.Options
    private let isPad: Bool
    private let layout: SampleSceneModel.Layout
    private let intent: Intent
    private let endsWithEnd: Bool
    private let multiWindow: Bool
    private let writesMainSplit: Bool
    private let favorites: [Int]

    // MARK: Simulation state

    private var random: SeededRandom
    private var now: Int64
    private var seq = 0
    private var out: [Event] = []
    private var cursor = 0
    private var setup: [SetupStep] = []
    private var scenes: [SampleSceneModel]
    private var active = 0
    private var secondSceneOpen = false
    private var ended = false
    private var backgrounded = false
    private var launchedByLink: Bool
    private var plannedAnomaly: AnomalyKind?
    private var cart: [Int] = []
    private var purchased = false
    private var cookingRecipe = 0
    private var candidates: [(action: Action, weight: Int)] = []

    /// Anomalies the session made on purpose, by kind.
    private(set) var plannedAnomalies: [AnomalyKind: Int] = [:]
    /// Anomalies its own scene model recorded, by kind (equal to
    /// ``plannedAnomalies`` unless the simulation is wrong).
    private(set) var modelAnomalies: [AnomalyKind: Int] = [:]

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
        eventCount = random.int(in: options.eventsPerSession)
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

        if restored {
            setup = [.restore]
        } else {
            switch layout {
            case .tabs:
                setup = [.layout(.compact), .tabsDefine(SampleCatalog.phoneTabs)]
                if random.percent(10) { setup.append(.hide("favorites")) }
                setup.append(.select("home"))
            case .split:
                setup = [.layout(.regular), .splitVisibility(random.percent(60) ? .all : .automatic)]
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
        if cursor < out.count {
            cursor += 1
            return out[cursor - 1]
        }
        out.removeAll(keepingCapacity: true)
        cursor = 0
        step()
        guard !out.isEmpty else { return nil }
        cursor = 1
        return out[0]
    }

    /// Emits the next action's events into `out`, or nothing at the end.
    private mutating func step() {
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
        if secondSceneOpen, random.percent(15) { active = 1 - active }
        act(budget: budget)
    }

    private mutating func startSession() {
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

    private mutating func setUp(_ step: SetupStep) {
        switch step {
        case .restore:
            let (state, json) = restoredMainScene().restoreState
            emit(.stateRestore(state: state, json: json), gap: .quick)
        case .layout(let sizeClass): emit(.layoutChange(sizeClass: sizeClass), gap: .quick)
        case .tabsDefine(let tabs): emit(.tabsDefine(tabs: tabs), gap: .quick)
        case .hide(let tab): emit(.tabVisibility(tab: tab, hidden: true), gap: .quick)
        case .select(let tab): emit(.tabSelect(tab: tab), gap: .quick)
        case .splitVisibility(let v): emit(.splitVisibility(split: "main", visibility: v), gap: .quick)
        }
    }

    /// A plausible main scene from an earlier launch, for `state.restore`.
    private mutating func restoredMainScene() -> SampleSceneModel {
        var m = SampleSceneModel(id: "main", field: scenes[0].field, layout: layout)
        _ = m.apply(.layoutChange(sizeClass: isPad ? .regular : .compact))
        let c = pickCategory()
        let r = pickRecipe(in: c)
        let category = SampleCatalog.categories[c].value
        let recipe = SampleCatalog.recipes[r].value
        if layout != .split {
            let tabs = layout == .tabs ? SampleCatalog.phoneTabs : SampleCatalog.padTabs
            _ = m.apply(.tabsDefine(tabs: tabs))
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
    private mutating func emit(
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
    private mutating func emit(
        _ kind: EventKind, gap: Gap, cause: Int? = nil,
        meta: [String: JSONValue]? = nil, extra: [String: JSONValue] = [:]
    ) {
        emit(kind, scene: active, gap: gap, cause: cause, meta: meta, extra: extra)
    }

    private mutating func millis(_ gap: Gap) -> Int64 {
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

    // MARK: Choosing

    private mutating func consider(_ action: Action, _ weight: Int, cost: Int = 1, budget: Int) {
        if weight > 0, cost <= budget { candidates.append((action, weight)) }
    }

    private mutating func act(budget: Int) {
        candidates.removeAll(keepingCapacity: true)
        let scene = scenes[active]
        switch scene.context {
        case .modal(let top): considerModal(top, scene, budget)
        case .tab(let tab): considerTab(tab, scene, budget)
        case .split(let split): considerSplit(split, scene, budget)
        }
        considerCommon(scene, budget)
        guard !candidates.isEmpty else { return perform(.background) }
        var total = 0
        for c in candidates { total += c.weight }
        var r = random.int(below: total)
        for c in candidates {
            if r < c.weight { return perform(c.action) }
            r -= c.weight
        }
    }

    private mutating func considerModal(_ top: ModalPresentation, _ scene: SampleSceneModel, _ budget: Int) {
        let modal = SampleCatalog.modal(top.modal) ?? SampleCatalog.Modal(id: top.modal, style: top.style, flow: .none)
        switch modal.flow {
        case .none:
            switch modal.id {
            case SampleCatalog.shareOptions.id:
                consider(.share, 12, cost: 2, budget: budget)
                consider(.dismiss, 5, budget: budget)
            case SampleCatalog.discardDraft.id where scene.isPresented(SampleCatalog.compose.id):
                consider(.discardDraft, 6, budget: budget)
                consider(.dismiss, 4, budget: budget)
            default:
                consider(.dismiss, 10, budget: budget)
            }
        case .compose, .settings, .filters, .cart, .cooking:
            let path = scene.path(modal.id)
            let canPush = canPush(stack: modal.id, flow: modal.flow, path: path, scene: scene)
            consider(.push, canPush ? 30 : 0, budget: budget)
            consider(.pop(1), path.isEmpty ? 0 : 12, budget: budget)
            consider(.dismiss, canPush ? 8 : 18, budget: budget)
            if modal.flow == .compose {
                if path.last == SampleCatalog.composePages[2] {
                    consider(.present(SampleCatalog.photoPicker), 6, budget: budget)
                }
                consider(.present(SampleCatalog.discardDraft), path.isEmpty ? 0 : 4, budget: budget)
            }
            if modal.flow == .cart, path.last == SampleCatalog.payment {
                consider(.purchase, intent == .purchase ? 40 : 2, cost: 2, budget: budget)
            }
            if plannedAnomaly == .presentDuplicate {
                consider(.anomaly(.presentDuplicate), 8, budget: budget)
            }
        }
    }

    private mutating func considerTab(_ tab: String, _ scene: SampleSceneModel, _ budget: Int) {
        let path = scene.path(tab)
        let canPush = canPush(stack: tab, flow: nil, path: path, scene: scene)
        consider(.push, canPush ? 40 : 0, budget: budget)
        if !path.isEmpty {
            consider(.pop(path.count >= 2 && random.percent(15) ? 2 : 1), canPush ? 22 : 40, budget: budget)
        }
        consider(.popToRoot, path.count >= 3 ? 5 : 0, budget: budget)
        consider(.continueCooking, tab == "home" && path.isEmpty && intent != .look ? 3 : 0, budget: budget)
        for other in scene.tabs where other != tab && !scene.hidden.contains(other) {
            consider(.selectTab(other), 2 * Self.tabWeight(other), budget: budget)
        }
        if tab == "search", path.count <= 1 { consider(.present(SampleCatalog.filtersSheet), 8, budget: budget) }
        if tab == "home" || tab == "favorites" { consider(.present(SampleCatalog.compose), 2, budget: budget) }
        if tab == "favorites", scene.focus?.type == "Recipe" {
            consider(.present(SampleCatalog.removeFavorite), 2, budget: budget)
        }
        if plannedAnomaly == .popUnderflow, path.count <= 1 {
            consider(.anomaly(.popUnderflow), 8, budget: budget)
        }
    }

    private mutating func considerSplit(_ id: String, _ scene: SampleSceneModel, _ budget: Int) {
        let split = scene.split ?? SplitState()
        let stack = scene.path(id)
        let clearCost = (split.detail.isEmpty ? 0 : 1) + (stack.isEmpty ? 0 : 1)
        consider(.sidebar, split.sidebar.isEmpty ? 40 : 10, cost: 1 + (split.content.isEmpty ? 0 : 1) + clearCost, budget: budget)
        if split.sidebar.count == 1, intent != .look {
            consider(.content, split.content.isEmpty ? 40 : 15, cost: 1 + clearCost, budget: budget)
            consider(.multiSelect, 3, cost: 1 + clearCost, budget: budget)
        }
        consider(.clearContent, split.content.isEmpty ? 0 : 3, cost: 1 + clearCost, budget: budget)
        if split.content.count == 1 {
            consider(.detailSection, split.detail.isEmpty ? 5 : 2, budget: budget)
            let canPush = canPush(stack: id, flow: nil, path: stack, scene: scene)
            consider(.push, canPush ? 20 : 0, budget: budget)
        }
        if !stack.isEmpty {
            consider(.pop(stack.count >= 2 && random.percent(15) ? 2 : 1), 10, budget: budget)
        }
        consider(.popToRoot, stack.count >= 2 ? 3 : 0, budget: budget)
        consider(.splitVisibility, 3, budget: budget)
        if layout == .tabsWithSplit {
            for other in scene.tabs where other != id && !scene.hidden.contains(other) {
                consider(.selectTab(other), 2 * Self.tabWeight(other), budget: budget)
            }
        }
        if plannedAnomaly == .popUnderflow, stack.count <= 1 {
            consider(.anomaly(.popUnderflow), 8, budget: budget)
        }
    }

    /// How often users switch to a tab.
    private static func tabWeight(_ tab: String) -> Int {
        switch tab {
        case "home", "browse": 4
        case "search": 3
        case "favorites": 2
        default: 1
        }
    }

    /// Actions available wherever the user is.
    private mutating func considerCommon(_ scene: SampleSceneModel, _ budget: Int) {
        let noModal = scene.modals.isEmpty
        if noModal {
            let focus = scene.focus
            if focus?.type == "Recipe", let r = recipeIndex(focus) {
                consider(.present(SampleCatalog.cookMode), 4, budget: budget)
                consider(.present(SampleCatalog.shareOptions), 3, budget: budget)
                consider(.favorite, 3, budget: budget)
                if isPad { consider(.present(SampleCatalog.nutrition), 2, budget: budget) }
                if !cart.contains(r) {
                    consider(.addToCart, intent == .purchase ? 18 : intent == .addToCart ? 10 : 0, budget: budget)
                }
            }
            if isPad, focus?.type == "Step" { consider(.present(SampleCatalog.timer), 3, budget: budget) }
            if !cart.isEmpty, !purchased {
                consider(.present(SampleCatalog.cart), intent == .purchase ? 12 : 1, budget: budget)
            }
            consider(.present(SampleCatalog.settings), 1, budget: budget)
            consider(.present(SampleCatalog.networkError), random.percent(30) ? 1 : 0, budget: budget)
            if scene.layout == .split { consider(.present(SampleCatalog.compose), 2, budget: budget) }
        }
        consider(.deepLink, 2, cost: Self.maxActionCost, budget: budget)
        consider(.background, 1, budget: budget)
        if isPad { consider(.layout, 1, budget: budget) }
        if multiWindow, !secondSceneOpen, active == 0 { consider(.openScene, 3, cost: 4, budget: budget) }
        if secondSceneOpen { consider(.closeScene, 1, budget: budget) }
        for tab in scene.hidden { consider(.showTab(tab), 2, budget: budget) }
        switch plannedAnomaly {
        case .dismissEmpty? where noModal:
            consider(.anomaly(.dismissEmpty), 8, budget: budget)
        case .dismissUnknown? where !scene.isPresented(SampleCatalog.filtersSheet.id):
            consider(.anomaly(.dismissUnknown), 8, budget: budget)
        case .selectHidden? where noModal && scene.layout != .split && scene.selected != "settings"
            && !scene.hidden.contains("settings"):
            consider(.anomaly(.selectHidden), 8, cost: 2, budget: budget)
        default: break
        }
    }

    // MARK: Content choices

    private mutating func pickCategory() -> Int { random.weightedIndex(SampleCatalog.categoryWeights) }

    private mutating func pickRecipe(in category: Int) -> Int {
        let ids = SampleCatalog.categories[category].recipes
        return ids[random.weightedIndex(Array(SampleCatalog.rankWeights.prefix(ids.count)))]
    }

    private func recipeIndex(_ value: RouteValue?) -> Int? {
        guard let value, value.type == "Recipe", let id = value.id else { return nil }
        return SampleCatalog.recipeByID[id]
    }

    /// The step after `path`'s top for recipe `r`: `Step/1` after the recipe
    /// itself (or an empty detail stack), `Step/n+1` after `Step/n`.
    private func nextStep(after top: RouteValue?, recipe r: Int) -> RouteValue? {
        guard let top, top.type == "Step" else { return SampleCatalog.steps[0] }
        guard let n = Int(top.id ?? ""), n < SampleCatalog.recipes[r].steps else { return nil }
        return SampleCatalog.steps[n]
    }

    /// Whether a push on `stack` has something to show (flows end: the
    /// last step of a recipe, the last page of the compose wizard, …).
    private func canPush(stack: String, flow: SampleCatalog.ModalFlow?, path: [RouteValue], scene: SampleSceneModel) -> Bool {
        let top = path.last
        if let flow {
            switch flow {
            case .none: return false
            case .compose: return path.count < SampleCatalog.composePages.count
            case .settings: return settingsCanPush(top)
            case .filters: return path.isEmpty
            case .cart: return path.count < 2
            case .cooking: return nextStep(after: top, recipe: cookingRecipe) != nil
            }
        }
        if stack == scene.splitID {
            guard scene.split?.content.count == 1, let r = recipeIndex(scene.split?.content.first) else { return false }
            return nextStep(after: top, recipe: r) != nil
        }
        if stack == "settings" { return settingsCanPush(top) }
        guard let top else { return intent != .look || stack != "favorites" }
        switch top.type {
        case "Category", "Search": return intent != .look
        case "Recipe": return true
        case "Step":
            guard let r = path.lastIndex(where: { $0.type == "Recipe" }).flatMap({ recipeIndex(path[$0]) }) else { return false }
            return nextStep(after: top, recipe: r) != nil
        default: return false
        }
    }

    private func settingsCanPush(_ top: RouteValue?) -> Bool { top == nil || top?.type == "Settings" }

    /// Picks the value a push on `stack` shows.
    private mutating func pushValue(stack: String, flow: SampleCatalog.ModalFlow?, path: [RouteValue], scene: SampleSceneModel) -> RouteValue {
        let top = path.last
        if let flow {
            switch flow {
            case .compose: return SampleCatalog.composePages[path.count]
            case .settings: return settingsValue(after: top)
            case .filters: return random.pick(SampleCatalog.filters)
            case .cart: return path.isEmpty ? SampleCatalog.checkout : SampleCatalog.payment
            case .cooking: return nextStep(after: top, recipe: cookingRecipe) ?? SampleCatalog.steps[0]
            case .none: break
            }
        }
        if stack == scene.splitID, let r = recipeIndex(scene.split?.content.first) {
            return nextStep(after: top, recipe: r) ?? SampleCatalog.steps[0]
        }
        if stack == "settings" { return settingsValue(after: top) }
        guard let top else {
            switch stack {
            case "search": return random.pick(SampleCatalog.searches).value
            case "favorites": return SampleCatalog.recipes[random.pick(favorites)].value
            default: return SampleCatalog.categories[pickCategory()].value
            }
        }
        switch top.type {
        case "Category":
            let c = SampleCatalog.categories.firstIndex { $0.value == top } ?? 0
            return SampleCatalog.recipes[pickRecipe(in: c)].value
        case "Search":
            let search = SampleCatalog.searches.first { $0.value == top } ?? SampleCatalog.searches[0]
            let r = pickRecipe(in: search.category)
            let rank = SampleCatalog.categories[search.category].recipes.firstIndex(of: r) ?? 0
            var value = SampleCatalog.recipes[r].value
            value.data = .object(["query": .string(search.query), "rank": .number(String(rank + 1))])
            return value
        default:
            let r = path.lastIndex(where: { $0.type == "Recipe" }).flatMap { recipeIndex(path[$0]) } ?? 0
            return nextStep(after: top, recipe: r) ?? SampleCatalog.steps[0]
        }
    }

    private mutating func settingsValue(after top: RouteValue?) -> RouteValue {
        if let top, let section = SampleCatalog.settingsSections.first(where: { $0.value == top }) {
            return random.pick(section.options)
        }
        return random.pick(SampleCatalog.settingsSections).value
    }

    // MARK: Performing

    private mutating func perform(_ action: Action) {
        let scene = scenes[active]
        switch action {
        case .push:
            let (stack, flow) = currentStack(scene)
            let value = pushValue(stack: stack, flow: flow, path: scene.path(stack), scene: scene)
            emit(.stackPush(stack: stack, value: value), gap: .think)
        case .pop(let count):
            let (stack, _) = currentStack(scene)
            emit(.stackPop(stack: stack, count: count == 1 && random.percent(70) ? nil : count), gap: .think)
        case .popToRoot:
            emit(.stackPopToRoot(stack: currentStack(scene).stack), gap: .think)
        case .continueCooking:
            let r = pickRecipe(in: pickCategory())
            let k = random.int(in: 1...SampleCatalog.recipes[r].steps)
            let category = SampleCatalog.categories[SampleCatalog.recipes[r].category].value
            let path = [category, SampleCatalog.recipes[r].value, SampleCatalog.steps[k - 1]]
            emit(.stackSet(stack: "home", path: path), gap: .think)
        case .selectTab(let tab):
            emit(.tabSelect(tab: tab), gap: .think)
        case .showTab(let tab):
            emit(.tabVisibility(tab: tab, hidden: false), gap: .think)
        case .present(let modal):
            if modal.flow == .cooking { cookingRecipe = recipeIndex(scene.focus) ?? 0 }
            let style: ModalStyle? = modal.style == .sheet && random.percent(50) ? nil : modal.style
            emit(.modalPresent(modal: modal.id, style: style), gap: .think)
        case .dismiss:
            let top = scene.modals.last?.modal
            emit(.modalDismiss(modal: random.percent(80) ? top : nil), gap: .think)
        case .discardDraft:
            emit(.modalDismiss(modal: SampleCatalog.compose.id), gap: .think)
        case .share:
            let channel = random.pick(["messages", "mail", "copy-link", "notes"])
            emit(.mark(label: "share"), gap: .think, meta: ["channel": .string(channel)])
            emit(.modalDismiss(modal: SampleCatalog.shareOptions.id), gap: .quick)
        case .purchase:
            var cents = 0
            for r in cart { cents += SampleCatalog.recipes[r].priceCents }
            let meta: [String: JSONValue] = [
                "currency": .string("EUR"), "items": .number(String(cart.count)), "total": .number(Self.decimal(cents: cents)),
            ]
            emit(.mark(label: "purchase"), gap: .think, meta: meta)
            emit(.modalDismiss(modal: SampleCatalog.cart.id), gap: .quick)
            cart.removeAll()
            purchased = true
        case .addToCart:
            guard let r = recipeIndex(scene.focus) else { return perform(.background) }
            cart.append(r)
            let servings = String(random.pick([2, 2, 4, 4, 4, 6, 8]))
            emit(.mark(label: "add-to-cart"), gap: .think,
                 meta: ["recipe": .string(SampleCatalog.recipes[r].value.id!), "servings": .number(servings)])
        case .favorite:
            let id = scene.focus?.id ?? ""
            emit(.mark(label: "favorite"), gap: .think, meta: random.percent(50) ? ["recipe": .string(id)] : nil)
        case .sidebar:
            let current = scene.split?.sidebar.first
            var c = pickCategory()
            if SampleCatalog.categories[c].value == current { c = (c + 1) % SampleCatalog.categories.count }
            selectCategory(c, gap: .think, cause: nil)
        case .content:
            selectRecipes(1, gap: .think)
        case .multiSelect:
            selectRecipes(random.int(in: 2...3), gap: .think)
        case .clearContent:
            let split = splitField(scene)
            emit(.splitSelect(split: split, column: .content, selection: []), gap: .think)
            clearDetail(gap: .quick, cause: nil)
        case .detailSection:
            emit(.splitSelect(split: splitField(scene), column: .detail, selection: [random.pick(SampleCatalog.sections)]), gap: .think)
        case .splitVisibility:
            let current = scene.split?.visibility ?? .automatic
            let choices = SplitVisibility.allCases.filter { $0 != current }
            emit(.splitVisibility(split: scene.splitID ?? "main", visibility: random.pick(choices)), gap: .think)
        case .layout:
            emit(.layoutChange(sizeClass: scene.sizeClass == .compact ? .regular : .compact), gap: .think)
        case .deepLink:
            deepLink()
        case .background:
            backgrounded = true
            emit(.other(type: "app.background"), gap: .think)
        case .openScene:
            openSecondScene()
        case .closeScene:
            emit(.sceneClose, scene: 1, gap: .think)
            secondSceneOpen = false
            active = 0
        case .anomaly(let kind):
            performAnomaly(kind, scene)
        }
    }

    /// The stack the user is navigating: the top modal's, the selected
    /// tab's, or the split's detail stack.
    private func currentStack(_ scene: SampleSceneModel) -> (stack: String, flow: SampleCatalog.ModalFlow?) {
        switch scene.context {
        case .modal(let top): return (top.modal, SampleCatalog.modal(top.modal)?.flow ?? SampleCatalog.ModalFlow.none)
        case .tab(let tab): return (tab, nil)
        case .split(let split): return (split, nil)
        }
    }

    /// The `split` field for a split.select: `main` is sometimes left out.
    private func splitField(_ scene: SampleSceneModel) -> String? {
        let id = scene.splitID ?? "main"
        return id == "main" && !writesMainSplit ? nil : id
    }

    /// Sidebar selection of a category, clearing the columns and stack after it.
    private mutating func selectCategory(_ c: Int, gap: Gap, cause: Int?) {
        let scene = scenes[active]
        let split = splitField(scene)
        emit(.splitSelect(split: split, column: .sidebar, selection: [SampleCatalog.categories[c].value]), gap: gap, cause: cause)
        if scene.split?.content.isEmpty == false {
            emit(.splitSelect(split: split, column: .content, selection: []), gap: cause == nil ? .quick : .caused, cause: cause)
        }
        clearDetail(gap: cause == nil ? .quick : .caused, cause: cause)
    }

    /// Content selection of `count` recipes of the sidebar's category.
    private mutating func selectRecipes(_ count: Int, gap: Gap) {
        let scene = scenes[active]
        let category = scene.split?.sidebar.first
        let c = SampleCatalog.categories.firstIndex { $0.value == category } ?? 0
        var chosen: [Int] = []
        var attempts = 0
        while chosen.count < count, attempts < 12 {
            let r = pickRecipe(in: c)
            if !chosen.contains(r) { chosen.append(r) }
            attempts += 1
        }
        chosen.sort()
        emit(.splitSelect(split: splitField(scene), column: .content, selection: chosen.map { SampleCatalog.recipes[$0].value }), gap: gap)
        clearDetail(gap: .quick, cause: nil)
    }

    /// Empties the detail column's selection and the detail stack, if set.
    private mutating func clearDetail(gap: Gap, cause: Int?) {
        let scene = scenes[active]
        if scene.split?.detail.isEmpty == false {
            emit(.splitSelect(split: splitField(scene), column: .detail, selection: []), gap: gap, cause: cause)
        }
        if let id = scene.splitID, !scene.path(id).isEmpty {
            emit(.stackPopToRoot(stack: id), gap: gap, cause: cause)
        }
    }

    private mutating func openSecondScene() {
        emit(.sceneOpen, scene: 1, gap: .think)
        secondSceneOpen = true
        active = 1
        emit(.layoutChange(sizeClass: .regular), gap: .quick)
        switch layout {
        case .split:
            emit(.splitVisibility(split: "main", visibility: .all), gap: .quick)
        case .tabs, .tabsWithSplit:
            emit(.tabsDefine(tabs: SampleCatalog.padTabs), gap: .quick)
            emit(.tabSelect(tab: "browse"), gap: .quick)
        }
    }

    // MARK: Deep links

    /// A deep link and the navigation it causes (each with `cause`).
    private mutating func deepLink() {
        let scene = scenes[active]
        let hasTabs = scene.layout != .split
        var r = random.int(below: 100)
        if !hasTabs, r >= 80, r < 95 { r = 0 }  // no search tab: open a recipe instead
        if r >= 95, cart.isEmpty { r = 0 }
        var meta: [String: JSONValue]?
        if random.percent(60) { meta = ["source": .string(random.pick(SampleCatalog.linkSources))] }
        if r < 65, intent == .look { r = 65 }  // a window shopper's links open categories
        if r < 65 {
            let recipe = pickRecipe(in: pickCategory())
            let link = r < 50 ? SampleCatalog.recipes[recipe].deepLink : SampleCatalog.recipes[recipe].universalLink
            emit(.urlOpen(url: link), gap: .think, meta: meta)
            let cause = seq
            dismissAll(cause: cause)
            showRecipe(recipe, cause: cause)
        } else if r < 80 {
            let c = pickCategory()
            emit(.urlOpen(url: SampleCatalog.categories[c].deepLink), gap: .think, meta: meta)
            let cause = seq
            dismissAll(cause: cause)
            if hasTabs && (scene.layout == .tabs || random.percent(50)) {
                selectTabIfNeeded("home", cause: cause)
                emit(.stackSet(stack: "home", path: [SampleCatalog.categories[c].value]), gap: .caused, cause: cause)
            } else {
                selectTabIfNeeded("browse", cause: cause)
                selectCategory(c, gap: .caused, cause: cause)
            }
        } else if r < 95 {
            let search = random.pick(SampleCatalog.searches)
            emit(.urlOpen(url: search.deepLink), gap: .think, meta: meta)
            let cause = seq
            dismissAll(cause: cause)
            selectTabIfNeeded("search", cause: cause)
            emit(.stackSet(stack: "search", path: [search.value]), gap: .caused, cause: cause)
        } else {
            emit(.urlOpen(url: SampleCatalog.cartLink), gap: .think, meta: meta)
            let cause = seq
            dismissAll(cause: cause)
            emit(.modalPresent(modal: SampleCatalog.cart.id, style: .sheet), gap: .caused, cause: cause)
        }
    }

    private mutating func dismissAll(cause: Int) {
        if let bottom = scenes[active].modals.first {
            emit(.modalDismiss(modal: bottom.modal), gap: .caused, cause: cause)
        }
    }

    private mutating func selectTabIfNeeded(_ tab: String, cause: Int) {
        let scene = scenes[active]
        if scene.layout != .split, scene.selected != tab {
            emit(.tabSelect(tab: tab), gap: .caused, cause: cause)
        }
    }

    private mutating func showRecipe(_ r: Int, cause: Int) {
        let scene = scenes[active]
        let recipe = SampleCatalog.recipes[r]
        let category = SampleCatalog.categories[recipe.category].value
        if scene.layout == .tabs || (scene.layout == .tabsWithSplit && random.percent(50)) {
            selectTabIfNeeded("home", cause: cause)
            if random.percent(50) {
                emit(.stackSet(stack: "home", path: [category, recipe.value]), gap: .caused, cause: cause)
            } else {
                if !scenes[active].path("home").isEmpty {
                    emit(.stackPopToRoot(stack: "home"), gap: .caused, cause: cause)
                }
                emit(.stackPush(stack: "home", value: category), gap: .caused, cause: cause)
                emit(.stackPush(stack: "home", value: recipe.value), gap: .caused, cause: cause)
            }
        } else {
            selectTabIfNeeded("browse", cause: cause)
            let split = splitField(scenes[active])
            emit(.splitSelect(split: split, column: .sidebar, selection: [category]), gap: .caused, cause: cause)
            emit(.splitSelect(split: split, column: .content, selection: [recipe.value]), gap: .caused, cause: cause)
            clearDetail(gap: .caused, cause: cause)
        }
    }

    // MARK: Anomalies

    private mutating func performAnomaly(_ kind: AnomalyKind, _ scene: SampleSceneModel) {
        plannedAnomaly = nil
        plannedAnomalies[kind, default: 0] += 1
        switch kind {
        case .popUnderflow:
            // A double back-swipe that the app reports as popping two.
            let (stack, _) = currentStack(scene)
            let depth = scene.path(stack).count
            emit(.stackPop(stack: stack, count: depth + 1 == 1 ? nil : depth + 1), gap: .think)
        case .dismissEmpty:
            emit(.modalDismiss(modal: nil), gap: .think)
        case .dismissUnknown:
            emit(.modalDismiss(modal: SampleCatalog.filtersSheet.id), gap: .think)
        case .presentDuplicate:
            // A double tap presenting the same sheet twice.
            let top = scene.modals.last!
            emit(.modalPresent(modal: top.modal, style: top.style), gap: .quick)
        case .selectHidden:
            // Screen Time hides settings; a stale shortcut selects it anyway.
            emit(.tabVisibility(tab: "settings", hidden: true), gap: .think)
            emit(.tabSelect(tab: "settings"), gap: .think)
        case .afterEnd:
            break
        }
    }

    // MARK: Formatting

    /// `1234` cents → `"12.34"`.
    static func decimal(cents: Int) -> String {
        let fraction = cents % 100
        return String(cents / 100) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }
}
