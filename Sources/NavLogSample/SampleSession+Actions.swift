/// The events each action of a ``SampleSession`` emits, and its planned
/// anomalies.
extension SampleSession {
    /// Does `action` in the active scene, which is `scene` before it.
    mutating func perform(_ action: Action, in scene: SampleSceneModel) {
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
        case .selectTab(let i):
            emit(.tabSelect(tab: scene.tabs[i]), gap: .think)
        case .showTab(let i):
            emit(.tabVisibility(tab: scene.hidden[i], hidden: false), gap: .think)
        case .present(let id):
            let modal = id.modal
            if modal.flow == .cooking { cookingRecipe = recipeIndex(scene.focus) ?? 0 }
            let style: ModalStyle? = modal.style == .sheet && random.percent(50) ? nil : modal.style
            let reset = scene.keepsOldPath(of: modal)
            emit(.modalPresent(modal: modal.id, style: style), gap: .think)
            // The app starts the sheet's NavigationStack afresh.
            if reset { emit(.stackSet(stack: modal.id, path: []), gap: .quick) }
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
            guard let r = recipeIndex(scene.focus) else { return perform(.background, in: scene) }
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
            let sizeClass: SizeClass = scene.sizeClass == .compact ? .regular : .compact
            // A sidebarAdaptable TabView: a tab bar when compact, the sidebar when regular.
            let presentation: TabPresentation? = usesIOS18Tabs && scene.layout != .split
                ? (sizeClass == .compact ? .tabBar : .sidebar) : nil
            emit(.layoutChange(sizeClass: sizeClass, tabPresentation: presentation), gap: .think)
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
    func currentStack(_ scene: SampleSceneModel) -> (stack: String, flow: SampleCatalog.ModalFlow?) {
        switch scene.context {
        case .modal(let top): return (top.modal, SampleCatalog.modal(top.modal)?.flow ?? SampleCatalog.ModalFlow.none)
        case .tab(let tab): return (tab, nil)
        case .split(let split): return (split, nil)
        }
    }

    /// The `split` field for a split.select: `main` is sometimes left out.
    func splitField(_ scene: SampleSceneModel) -> String? {
        let id = scene.splitID ?? "main"
        return id == "main" && !writesMainSplit ? nil : id
    }

    /// Sidebar selection of a category, clearing the columns and stack after it.
    mutating func selectCategory(_ c: Int, gap: Gap, cause: Int?) {
        let scene = scenes[active]
        let split = splitField(scene)
        emit(.splitSelect(split: split, column: .sidebar, selection: [SampleCatalog.categories[c].value]), gap: gap, cause: cause)
        if scene.split?.content.isEmpty == false {
            emit(.splitSelect(split: split, column: .content, selection: []), gap: cause == nil ? .quick : .caused, cause: cause)
        }
        clearDetail(gap: cause == nil ? .quick : .caused, cause: cause)
    }

    /// Content selection of `count` recipes of the sidebar's category.
    mutating func selectRecipes(_ count: Int, gap: Gap) {
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
    mutating func clearDetail(gap: Gap, cause: Int?) {
        let scene = scenes[active]
        if scene.split?.detail.isEmpty == false {
            emit(.splitSelect(split: splitField(scene), column: .detail, selection: []), gap: gap, cause: cause)
        }
        if let id = scene.splitID, !scene.path(id).isEmpty {
            emit(.stackPopToRoot(stack: id), gap: gap, cause: cause)
        }
    }

    mutating func openSecondScene() {
        emit(.sceneOpen, scene: 1, gap: .think)
        secondSceneOpen = true
        active = 1
        emit(.layoutChange(sizeClass: .regular, tabPresentation: usesIOS18Tabs ? .sidebar : nil), gap: .quick)
        switch layout {
        case .split:
            emit(.splitVisibility(split: "main", visibility: .all), gap: .quick)
        case .tabs, .tabsWithSplit:
            emit(usesIOS18Tabs ? Self.padTabsWithSections : .tabsDefine(tabs: SampleCatalog.padTabs), gap: .quick)
            emit(.tabSelect(tab: "browse"), gap: .quick)
        }
    }

    // MARK: Anomalies

    mutating func performAnomaly(_ kind: AnomalyKind, _ scene: SampleSceneModel) {
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
}
