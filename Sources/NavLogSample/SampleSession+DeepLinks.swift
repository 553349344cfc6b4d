/// Deep links in a ``SampleSession``: a `url.open` and the navigation it
/// causes, each caused event carrying the link's seq as `cause`.
extension SampleSession {
    /// A deep link and the navigation it causes (each with `cause`).
    mutating func deepLink() {
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
            let reset = scenes[active].keepsOldPath(of: SampleCatalog.cart)
            emit(.modalPresent(modal: SampleCatalog.cart.id, style: .sheet), gap: .caused, cause: cause)
            if reset { emit(.stackSet(stack: SampleCatalog.cart.id, path: []), gap: .caused, cause: cause) }
        }
    }

    mutating func dismissAll(cause: Int) {
        if let bottom = scenes[active].modals.first {
            emit(.modalDismiss(modal: bottom.modal), gap: .caused, cause: cause)
        }
    }

    mutating func selectTabIfNeeded(_ tab: String, cause: Int) {
        let scene = scenes[active]
        if scene.layout != .split, scene.selected != tab {
            emit(.tabSelect(tab: tab), gap: .caused, cause: cause)
        }
    }

    mutating func showRecipe(_ r: Int, cause: Int) {
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
}
