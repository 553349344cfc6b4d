/// A scene's own event kinds (docs/events.md): the rules that
/// ``NavigationProjector/applyEffect(_:scene:)`` applies to the event's scene.
extension SceneState {
    /// Applies a scene-level event kind in place; returns its anomaly.
    ///
    /// Scene lifecycle and session kinds are handled by
    /// ``NavigationProjector/applyEffect(_:scene:)``; they are no-ops here.
    package mutating func apply(_ kind: EventKind) -> AnomalyKind? {
        var cache = SceneCache()
        return apply(kind, cache: &cache)
    }

    /// ``apply(_:)`` remembering the stack or split it changed in `cache`
    /// (which holds this scene's places only).
    @inline(__always)
    mutating func apply(_ kind: EventKind, cache: inout SceneCache) -> AnomalyKind? {
        switch kind {
        case .stackPush(let stack, let value):
            push(value, onto: stack, cache: &cache)
        case .stackPop(let stack, let count):
            return pop(count, from: stack, cache: &cache)
        case .stackPopToRoot(let stack):
            popToRoot(stack, cache: &cache)
        case .stackSet(let stack, let path):
            setPath(path, of: stack, cache: &cache)
        case .tabSelect(let tab):
            return tabs.select(tab)
        case .tabsDefine(let order, let sections, let searchTab):
            tabs.define(order, sections: sections, searchTab: searchTab)
        case .tabsCustomize(let order, let hidden):
            tabs.customize(order: order, hidden: hidden)
        case .tabVisibility(let tab, let hidden):
            tabs.setHidden(tab, hidden)
        case .splitSelect(let split, let column, let selection):
            select(selection, in: column, of: split ?? "main", cache: &cache)
        case .splitVisibility(let split, let visibility):
            setVisibility(visibility, of: split, cache: &cache)
        case .modalPresent(let modal, let style):
            return present(modal, style: style ?? .sheet)
        case .modalDismiss(let modal):
            return dismiss(modal)
        case .layoutChange(let sizeClass, let presentation):
            self.sizeClass = sizeClass
            if let presentation { tabs.presentation = presentation }
        case .stateRestore(let restored, _):
            self = restored
            cache = SceneCache()
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .urlOpen, .mark, .other:
            break
        }
        return nil
    }

    // One change a kind: what ``apply(_:cache:)`` does, and what
    // ``EventLineParser/fold(_:line:into:)`` calls without an event.

    /// `stack.push`.
    @inline(__always)
    mutating func push(_ value: RouteValue, onto stack: String, cache: inout SceneCache) {
        stacks.values[stackIndex(stack, &cache)].append(value)
    }

    /// `stack.pop` (`count` absent means 1).
    @inline(__always)
    mutating func pop(_ count: Int?, from stack: String, cache: inout SceneCache) -> AnomalyKind? {
        Self.pop(&stacks.values[stackIndex(stack, &cache)], count: count ?? 1)
    }

    /// `stack.popToRoot`.
    @inline(__always)
    mutating func popToRoot(_ stack: String, cache: inout SceneCache) {
        stacks.values[stackIndex(stack, &cache)].removeAll(keepingCapacity: true)
    }

    /// `stack.set`.
    @inline(__always)
    mutating func setPath(_ path: [RouteValue], of stack: String, cache: inout SceneCache) {
        stacks.values[stackIndex(stack, &cache)] = path
    }

    /// `split.select` (an absent split is `"main"`).
    @inline(__always)
    mutating func select(_ selection: [RouteValue], in column: SplitColumn, of split: String, cache: inout SceneCache) {
        splits.values[splitIndex(split, &cache)][column] = selection
    }

    /// `split.visibility`.
    @inline(__always)
    mutating func setVisibility(_ visibility: SplitVisibility, of split: String, cache: inout SceneCache) {
        splits.values[splitIndex(split, &cache)].visibility = visibility
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

    /// Where a stack is in ``stacks``, made empty when new; remembered in
    /// `cache` for the next event on the same stack.
    @inline(__always)
    private mutating func stackIndex(_ stack: String, _ cache: inout SceneCache) -> Dictionary<String, [RouteValue]>.Index {
        if let last = cache.stack, last.id == stack { return last.index }
        let index: Dictionary<String, [RouteValue]>.Index
        if let found = stacks.index(forKey: stack) {
            index = found
        } else {
            stacks[stack] = []
            index = stacks.index(forKey: stack)!
        }
        cache.stack = (stack, index)
        return index
    }

    /// Where a split is in ``splits``, made empty when new; remembered in
    /// `cache` for the next event on the same split.
    @inline(__always)
    private mutating func splitIndex(_ split: String, _ cache: inout SceneCache) -> Dictionary<String, SplitState>.Index {
        if let last = cache.split, last.id == split { return last.index }
        let index: Dictionary<String, SplitState>.Index
        if let found = splits.index(forKey: split) {
            index = found
        } else {
            splits[split] = SplitState()
            index = splits.index(forKey: split)!
        }
        cache.split = (split, index)
        return index
    }

    /// Removes `count` values; more than held empties the stack
    /// (`pop-underflow`); a count below 1 (not from a parsed line, which
    /// has none) removes nothing.
    @inline(__always)
    static func pop(_ stack: inout [RouteValue], count: Int) -> AnomalyKind? {
        if count > stack.count {
            stack.removeAll(keepingCapacity: true)
            return .popUnderflow
        }
        if count > 0 { stack.removeLast(count) }
        return nil
    }
}
