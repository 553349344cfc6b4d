/// How a ``SampleSession`` chooses its next action: every action that makes
/// sense where the user is, weighted by how often people do it, and within
/// the events the session has left.
extension SampleSession {
    mutating func consider(_ action: Action, _ weight: Int, cost: Int = 1, budget: Int) {
        guard weight > 0 else { return }
        var cost = cost
        if case .present(let id) = action, scenes[active].keepsOldPath(of: id.modal) { cost += 1 }
        if cost <= budget { candidates.append((action, weight)) }
    }

    mutating func act(budget: Int) {
        candidates.removeAll(keepingCapacity: true)
        let scene = scenes[active]
        switch scene.context {
        case .modal(let top): considerModal(top, scene, budget)
        case .tab(let tab): considerTab(tab, scene, budget)
        case .split(let split): considerSplit(split, scene, budget)
        }
        considerCommon(scene, budget)
        guard !candidates.isEmpty else { return perform(.background, in: scene) }
        var total = 0
        for c in candidates { total += c.weight }
        var r = random.int(below: total)
        for c in candidates {
            if r < c.weight { return perform(c.action, in: scene) }
            r -= c.weight
        }
    }

    mutating func considerModal(_ top: ModalPresentation, _ scene: SampleSceneModel, _ budget: Int) {
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
                    consider(.present(.photoPicker), 6, budget: budget)
                }
                consider(.present(.discardDraft), path.isEmpty ? 0 : 4, budget: budget)
            }
            if modal.flow == .cart, path.last == SampleCatalog.payment {
                consider(.purchase, intent == .purchase ? 40 : 2, cost: 2, budget: budget)
            }
            if plannedAnomaly == .presentDuplicate {
                consider(.anomaly(.presentDuplicate), 8, budget: budget)
            }
        }
    }

    mutating func considerTab(_ tab: String, _ scene: SampleSceneModel, _ budget: Int) {
        let path = scene.path(tab)
        let canPush = canPush(stack: tab, flow: nil, path: path, scene: scene)
        consider(.push, canPush ? 40 : 0, budget: budget)
        if !path.isEmpty {
            consider(.pop(path.count >= 2 && random.percent(15) ? 2 : 1), canPush ? 22 : 40, budget: budget)
        }
        consider(.popToRoot, path.count >= 3 ? 5 : 0, budget: budget)
        consider(.continueCooking, tab == "home" && path.isEmpty && intent != .look ? 3 : 0, budget: budget)
        for (i, other) in scene.tabs.enumerated() where other != tab && !scene.hidden.contains(other) {
            consider(.selectTab(i), 2 * Self.tabWeight(other), budget: budget)
        }
        if tab == "search", path.count <= 1 { consider(.present(.filters), 8, budget: budget) }
        if tab == "home" || tab == "favorites" { consider(.present(.compose), 2, budget: budget) }
        if tab == "favorites", scene.focus?.type == "Recipe" {
            consider(.present(.removeFavorite), 2, budget: budget)
        }
        if plannedAnomaly == .popUnderflow, path.count <= 1 {
            consider(.anomaly(.popUnderflow), 8, budget: budget)
        }
    }

    mutating func considerSplit(_ id: String, _ scene: SampleSceneModel, _ budget: Int) {
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
            for (i, other) in scene.tabs.enumerated() where other != id && !scene.hidden.contains(other) {
                consider(.selectTab(i), 2 * Self.tabWeight(other), budget: budget)
            }
        }
        if plannedAnomaly == .popUnderflow, stack.count <= 1 {
            consider(.anomaly(.popUnderflow), 8, budget: budget)
        }
    }

    /// How often users switch to a tab.
    static func tabWeight(_ tab: String) -> Int {
        switch tab {
        case "home", "browse": 4
        case "search": 3
        case "favorites": 2
        default: 1
        }
    }

    /// Actions available wherever the user is.
    mutating func considerCommon(_ scene: SampleSceneModel, _ budget: Int) {
        let noModal = scene.modals.isEmpty
        if noModal {
            let focus = scene.focus
            if focus?.type == "Recipe", let r = recipeIndex(focus) {
                consider(.present(.cookMode), 4, budget: budget)
                consider(.present(.shareOptions), 3, budget: budget)
                consider(.favorite, 3, budget: budget)
                if isPad { consider(.present(.nutrition), 2, budget: budget) }
                if !cart.contains(r) {
                    consider(.addToCart, intent == .purchase ? 18 : intent == .addToCart ? 10 : 0, budget: budget)
                }
            }
            if isPad, focus?.type == "Step" { consider(.present(.timer), 3, budget: budget) }
            if !cart.isEmpty, !purchased {
                consider(.present(.cart), intent == .purchase ? 12 : 1, budget: budget)
            }
            // The settings sheet's stack is `settings`, like the settings tab's:
            // only layouts without that tab present it.
            if scene.layout == .split { consider(.present(.settings), 1, budget: budget) }
            consider(.present(.networkError), random.percent(30) ? 1 : 0, budget: budget)
            if scene.layout == .split { consider(.present(.compose), 2, budget: budget) }
        }
        consider(.deepLink, 2, cost: Self.maxActionCost, budget: budget)
        consider(.background, 1, budget: budget)
        if isPad { consider(.layout, 1, budget: budget) }
        if multiWindow, !secondSceneOpen, active == 0 { consider(.openScene, 3, cost: 4, budget: budget) }
        if secondSceneOpen { consider(.closeScene, 1, budget: budget) }
        for i in scene.hidden.indices { consider(.showTab(i), 2, budget: budget) }
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
}
