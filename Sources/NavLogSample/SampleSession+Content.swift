/// What a ``SampleSession`` shows next: categories and recipes by
/// popularity, recipe steps in order, the pages of each modal's flow.
extension SampleSession {
    mutating func pickCategory() -> Int { random.weightedIndex(SampleCatalog.categoryWeights) }

    mutating func pickRecipe(in category: Int) -> Int {
        let ids = SampleCatalog.categories[category].recipes
        return ids[random.weightedIndex(Array(SampleCatalog.rankWeights.prefix(ids.count)))]
    }

    func recipeIndex(_ value: RouteValue?) -> Int? {
        guard let value, value.type == "Recipe", let id = value.id else { return nil }
        return SampleCatalog.recipeByID[id]
    }

    /// The step after `path`'s top for recipe `r`: `Step/1` after the recipe
    /// itself (or an empty detail stack), `Step/n+1` after `Step/n`.
    func nextStep(after top: RouteValue?, recipe r: Int) -> RouteValue? {
        guard let top, top.type == "Step" else { return SampleCatalog.steps[0] }
        guard let n = Int(top.id ?? ""), n < SampleCatalog.recipes[r].steps else { return nil }
        return SampleCatalog.steps[n]
    }

    /// Whether a push on `stack` has something to show (flows end: the
    /// last step of a recipe, the last page of the compose wizard, …).
    func canPush(stack: String, flow: SampleCatalog.ModalFlow?, path: [RouteValue], scene: SampleSceneModel) -> Bool {
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

    func settingsCanPush(_ top: RouteValue?) -> Bool { top == nil || top?.type == "Settings" }

    /// Picks the value a push on `stack` shows.
    mutating func pushValue(stack: String, flow: SampleCatalog.ModalFlow?, path: [RouteValue], scene: SampleSceneModel) -> RouteValue {
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

    mutating func settingsValue(after top: RouteValue?) -> RouteValue {
        if let top, let section = SampleCatalog.settingsSections.first(where: { $0.value == top }) {
            return random.pick(section.options)
        }
        return random.pick(SampleCatalog.settingsSections).value
    }
}
