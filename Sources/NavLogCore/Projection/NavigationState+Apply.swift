/// The projection (contract §1, §2, §5): folding events into a state.
///
/// ```swift
/// var state = NavigationState(session: "s-1")
/// for event in events {
///     let anomalies = state.apply(event)   // usually []
/// }
/// ```
///
/// The fold never stops on a surprising but well-formed event; it records an
/// anomaly instead. It mutates the state in place: the scene, its stacks and
/// its splits are modified through the dictionaries' in-place accessors, so an
/// event costs a few hash lookups and no copy of anything already held.
extension NavigationState {
    /// Applies one event and returns the anomalies it caused (for
    /// `navlog replay`): its own anomaly first, if any, then `after-end` if
    /// the session had already ended. Each is also counted in ``anomalies``.
    ///
    /// The state's ``seq`` and ``t`` become the event's. The event's scene
    /// exists afterwards (created empty when first named), except after
    /// `scene.close`. ``session`` is left as it is.
    ///
    /// Effects, beyond the table of contract §1:
    /// - `tabs.define` sets the order exactly (later duplicates dropped),
    ///   forgets hidden tabs that are not in it and keeps the selection, even
    ///   when the selected tab is not in the new order.
    /// - `tab.select` of a tab not in the order appends it; of a hidden tab,
    ///   selects it, keeps it hidden and records `select-hidden`.
    /// - `tab.visibility` of a tab not in the order appends it to the order
    ///   first (like `tab.select`), so hidden tabs are always in the order and
    ///   `tabs.hidden` can be listed in tab order.
    /// - `stack.pop` removes `count` (default 1) values; popping more than the
    ///   stack holds empties it and records `pop-underflow`. `stack.pop` and
    ///   `stack.popToRoot` of an unknown stack create it empty.
    /// - `split.select` (split default `"main"`) and `split.visibility` create
    ///   the split (visibility `automatic`, empty columns).
    /// - `modal.present` (style default `sheet`) of an id already anywhere in
    ///   the modal stack changes nothing and records `present-duplicate`.
    /// - `modal.dismiss` with an id removes the lowest modal with that id and
    ///   all above it (unknown id: `dismiss-unknown`); without one, the top
    ///   modal (none: `dismiss-empty`). Stacks are left as they were.
    /// - `state.restore` replaces the scene's state; `layout.change` sets the
    ///   size class; `session.end` marks the session ended.
    /// - `session.start`, `url.open`, `mark` and unknown kinds change nothing
    ///   but the scene's existence.
    ///
    /// - Complexity: O(1) hash lookups for most kinds; O(n) in the event's
    ///   own payload (`tabs.define`, `stack.set`, `state.restore`, pops).
    @discardableResult
    public mutating func apply(_ event: Event) -> [AnomalyKind] {
        let wasEnded = ended
        return finish(applyEffect(event), wasEnded: wasEnded)
    }

    /// Counts `after-end` when due and lists the event's anomalies.
    @inline(__always)
    mutating func finish(_ own: AnomalyKind?, wasEnded: Bool) -> [AnomalyKind] {
        guard wasEnded else { return own.map { [$0] } ?? [] }
        record(.afterEnd)
        return own.map { [$0, .afterEnd] } ?? [.afterEnd]
    }

    /// Applies the event's effect, counts its own anomaly (not `after-end`)
    /// and returns it.
    mutating func applyEffect(_ event: Event) -> AnomalyKind? {
        seq = event.seq
        t = event.t
        let id = event.sceneID
        switch event.kind {
        case .sceneClose:
            scenes.removeValue(forKey: id)
            return nil
        case .sceneOpen:
            touchScene(id)
            return nil
        case .sessionEnd:
            ended = true
            touchScene(id)
            return nil
        case .stateRestore(let restored, _):
            scenes[id] = restored
            return nil
        case .sessionStart, .urlOpen, .mark, .other:
            touchScene(id)
            return nil
        default:
            return changeScene(id) { $0.apply(event.kind) }
        }
    }

    /// Applies `change` to scene `id` (made empty when new) and records the
    /// anomaly it returns, if any.
    @inline(__always)
    mutating func changeScene(_ id: String, _ change: (inout SceneState) -> AnomalyKind?) -> AnomalyKind? {
        let anomaly = change(&sceneTable.values[sceneIndex(id)])
        lastScreen = nil
        if let anomaly { record(anomaly) }
        return anomaly
    }

    /// Where a scene is in ``sceneTable``, made empty when new; remembered
    /// for the next event on the same scene.
    @inline(__always)
    mutating func sceneIndex(_ id: String) -> Dictionary<String, SceneState>.Index {
        if let last = lastScene, last.id == id { return last.index }
        touchScene(id)
        let index = sceneTable.index(forKey: id)!
        lastScene = (id, index)
        lastScreen = nil
        return index
    }

    /// Makes sure a scene exists.
    @inline(__always)
    mutating func touchScene(_ id: String) {
        if let last = lastScene, last.id == id { return }
        if sceneTable.index(forKey: id) == nil { scenes[id] = SceneState() }
    }

    /// Counts one anomaly.
    @inline(__always)
    mutating func record(_ kind: AnomalyKind) {
        anomalies[kind, default: 0] += 1
    }
}

extension SceneState {
    /// Applies a scene-level event kind in place; returns its anomaly.
    ///
    /// Scene lifecycle, session and restore kinds are handled by
    /// ``NavigationState/apply(_:)``; they are no-ops here.
    mutating func apply(_ kind: EventKind) -> AnomalyKind? {
        switch kind {
        case .stackPush(let stack, let value):
            push(value, onto: stack)
        case .stackPop(let stack, let count):
            return pop(count, from: stack)
        case .stackPopToRoot(let stack):
            popToRoot(stack)
        case .stackSet(let stack, let path):
            setPath(path, of: stack)
        case .tabSelect(let tab):
            return tabs.select(tab)
        case .tabsDefine(let order):
            tabs.define(order)
        case .tabVisibility(let tab, let hidden):
            tabs.setHidden(tab, hidden)
        case .splitSelect(let split, let column, let selection):
            select(selection, in: column, of: split ?? "main")
        case .splitVisibility(let split, let visibility):
            setVisibility(visibility, of: split)
        case .modalPresent(let modal, let style):
            return present(modal, style: style ?? .sheet)
        case .modalDismiss(let modal):
            return dismiss(modal)
        case .layoutChange(let sizeClass):
            self.sizeClass = sizeClass
        case .stateRestore(let restored, _):
            self = restored
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .urlOpen, .mark, .other:
            break
        }
        return nil
    }

    // One change a kind: what ``apply(_:)`` does, and what
    // ``EventLineParser/fold(_:line:into:)`` calls without an event.

    /// `stack.push`.
    @inline(__always)
    mutating func push(_ value: RouteValue, onto stack: String) {
        stackTable.values[stackIndex(stack)].append(value)
    }

    /// `stack.pop` (`count` absent means 1).
    @inline(__always)
    mutating func pop(_ count: Int?, from stack: String) -> AnomalyKind? {
        Self.pop(&stackTable.values[stackIndex(stack)], count: count ?? 1)
    }

    /// `stack.popToRoot`.
    @inline(__always)
    mutating func popToRoot(_ stack: String) {
        stackTable.values[stackIndex(stack)].removeAll(keepingCapacity: true)
    }

    /// `stack.set`.
    @inline(__always)
    mutating func setPath(_ path: [RouteValue], of stack: String) {
        stackTable.values[stackIndex(stack)] = path
    }

    /// `split.select` (an absent split is `"main"`).
    @inline(__always)
    mutating func select(_ selection: [RouteValue], in column: SplitColumn, of split: String) {
        splitTable.values[splitIndex(split)][column] = selection
    }

    /// `split.visibility`.
    @inline(__always)
    mutating func setVisibility(_ visibility: SplitVisibility, of split: String) {
        splitTable.values[splitIndex(split)].visibility = visibility
    }

    /// `modal.present` (an absent style is `.sheet`).
    @inline(__always)
    mutating func present(_ modal: String, style: ModalStyle) -> AnomalyKind? {
        if modals.contains(where: { $0.modal == modal }) { return .presentDuplicate }
        modals.append(ModalPresentation(modal: modal, style: style))
        return nil
    }

    /// `modal.dismiss`: of `modal` and every modal above it, or of the top one.
    @inline(__always)
    mutating func dismiss(_ modal: String?) -> AnomalyKind? {
        if let modal {
            guard let index = modals.firstIndex(where: { $0.modal == modal }) else { return .dismissUnknown }
            modals.removeSubrange(index...)
        } else {
            if modals.isEmpty { return .dismissEmpty }
            modals.removeLast()
        }
        return nil
    }

    /// Where a stack is in ``stackTable``, made empty when new; remembered
    /// for the next event on the same stack.
    @inline(__always)
    mutating func stackIndex(_ stack: String) -> Dictionary<String, [RouteValue]>.Index {
        if let last = lastStack, last.id == stack { return last.index }
        let index: Dictionary<String, [RouteValue]>.Index
        if let found = stackTable.index(forKey: stack) {
            index = found
        } else {
            stackTable[stack] = []
            index = stackTable.index(forKey: stack)!
        }
        lastStack = (stack, index)
        return index
    }

    /// Where a split is in ``splitTable``, made empty when new; remembered
    /// for the next event on the same split.
    @inline(__always)
    mutating func splitIndex(_ split: String) -> Dictionary<String, SplitState>.Index {
        if let last = lastSplit, last.id == split { return last.index }
        let index: Dictionary<String, SplitState>.Index
        if let found = splitTable.index(forKey: split) {
            index = found
        } else {
            splitTable[split] = SplitState()
            index = splitTable.index(forKey: split)!
        }
        lastSplit = (split, index)
        return index
    }

    /// Removes `count` values; more than held empties the stack (`pop-underflow`).
    @inline(__always)
    static func pop(_ stack: inout [RouteValue], count: Int) -> AnomalyKind? {
        if count > stack.count {
            stack.removeAll(keepingCapacity: true)
            return .popUnderflow
        }
        stack.removeLast(count)
        return nil
    }
}

extension TabState {
    /// `tab.select`: appends a new tab to the order; selecting a hidden tab
    /// keeps it hidden and is a `select-hidden` anomaly.
    mutating func select(_ tab: String) -> AnomalyKind? {
        if !order.contains(tab) { order.append(tab) }
        selected = tab
        return hidden.contains(tab) ? .selectHidden : nil
    }

    /// `tabs.define`: the order exactly (later duplicates dropped); hidden
    /// tabs not in it are forgotten; the selection is kept.
    mutating func define(_ tabs: [String]) {
        order = Self.uniqued(tabs)
        if !hidden.isEmpty {
            hidden = hidden.filter { order.contains($0) }
        }
    }

    /// `tab.visibility`: a tab not in the order is appended to it, so every
    /// hidden tab is in the order.
    mutating func setHidden(_ tab: String, _ isHidden: Bool) {
        if !order.contains(tab) { order.append(tab) }
        if isHidden { hidden.insert(tab) } else { hidden.remove(tab) }
    }

    /// The strings in order, each kept at its first occurrence.
    static func uniqued(_ items: [String]) -> [String] {
        if items.count <= 16 {
            var out: [String] = []
            out.reserveCapacity(items.count)
            for item in items where !out.contains(item) { out.append(item) }
            return out
        }
        var seen = Set<String>(minimumCapacity: items.count)
        return items.filter { seen.insert($0).inserted }
    }
}
