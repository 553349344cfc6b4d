import NavLogCore

/// One call per event kind of docs/events.md; each returns the event's
/// seq, or `nil` when it was not recorded (see ``NavigationRecorder/record(_:scene:cause:meta:extra:)``).
/// `scene` defaults to the main scene, `cause` to ``CauseContext/current``.
extension NavigationRecorder {
    /// `session.end`.
    @discardableResult
    public func sessionEnded(meta: [String: JSONValue]? = nil) -> Int? {
        record(.sessionEnd, meta: meta)
    }

    /// `scene.open`.
    @discardableResult
    public func sceneOpened(scene: String, cause: Int? = nil, meta: [String: JSONValue]? = nil) -> Int? {
        record(.sceneOpen, scene: scene, cause: cause, meta: meta)
    }

    /// `scene.close`.
    @discardableResult
    public func sceneClosed(scene: String, cause: Int? = nil, meta: [String: JSONValue]? = nil) -> Int? {
        record(.sceneClose, scene: scene, cause: cause, meta: meta)
    }

    /// `tabs.define`: the tab order, and optionally the sidebar's groups
    /// (`TabSection`) and the tab with role `.search`.
    ///
    /// ```swift
    /// recorder.tabsDefined(["home", "favorites", "recent", "search"],
    ///                      sections: [TabSection(name: "Collections", tabs: ["favorites", "recent"])],
    ///                      searchTab: "search")
    /// ```
    @discardableResult
    public func tabsDefined(
        _ tabs: [String], sections: [TabSection]? = nil, searchTab: String? = nil,
        scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.tabsDefine(tabs: tabs, sections: sections, searchTab: searchTab), scene: scene, cause: cause, meta: meta)
    }

    /// `tabs.customize`: the user's own customization (a `TabViewCustomization`
    /// changed: tabs reordered or hidden in the sidebar or tab bar), as the
    /// order and the hidden tabs it now holds.
    @discardableResult
    public func tabsCustomized(
        order: [String], hidden: [String], scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.tabsCustomize(order: order, hidden: hidden), scene: scene, cause: cause, meta: meta)
    }

    /// `tab.select`: a TabView selection after a change.
    @discardableResult
    public func tabChanged(to tab: String, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil) -> Int? {
        record(.tabSelect(tab: tab), scene: scene, cause: cause, meta: meta)
    }

    /// `tab.visibility`.
    @discardableResult
    public func tabVisibilityChanged(
        _ tab: String, hidden: Bool, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.tabVisibility(tab: tab, hidden: hidden), scene: scene, cause: cause, meta: meta)
    }

    /// `stack.push` of one value.
    @discardableResult
    public func push(
        _ value: some RouteConvertible, on stack: String, scene: String? = nil, cause: Int? = nil,
        meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.stackPush(stack: stack, value: value.routeValue), scene: scene, cause: cause, meta: meta)
    }

    /// `stack.pop` of `count` values.
    @discardableResult
    public func pop(
        _ count: Int = 1, from stack: String, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.stackPop(stack: stack, count: max(count, 1)), scene: scene, cause: cause, meta: meta)
    }

    /// `stack.popToRoot`.
    @discardableResult
    public func popToRoot(_ stack: String, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil) -> Int? {
        record(.stackPopToRoot(stack: stack), scene: scene, cause: cause, meta: meta)
    }

    /// `stack.set`: the whole path (deep links, restoration).
    @discardableResult
    public func setStack<Path: Sequence>(
        _ stack: String, to path: Path, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? where Path.Element: RouteConvertible {
        record(.stackSet(stack: stack, path: path.map(\.routeValue)), scene: scene, cause: cause, meta: meta)
    }

    /// `split.select`: a split column's selection after a change (empty:
    /// none, several: multi-select).
    @discardableResult
    public func splitSelectionChanged<Selection: Sequence>(
        column: SplitColumn, to selection: Selection, split: String? = nil, scene: String? = nil,
        cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? where Selection.Element: RouteConvertible {
        record(.splitSelect(split: split, column: column, selection: selection.map(\.routeValue)),
               scene: scene, cause: cause, meta: meta)
    }

    /// `split.select` of one value, or of none when `selection` is `nil`.
    @discardableResult
    public func splitSelectionChanged(
        column: SplitColumn, to selection: (some RouteConvertible)?, split: String? = nil, scene: String? = nil,
        cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.splitSelect(split: split, column: column, selection: selection.map { [$0.routeValue] } ?? []),
               scene: scene, cause: cause, meta: meta)
    }

    /// `split.visibility`.
    @discardableResult
    public func splitVisibilityChanged(
        to visibility: SplitVisibility, split: String = "main", scene: String? = nil, cause: Int? = nil,
        meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.splitVisibility(split: split, visibility: visibility), scene: scene, cause: cause, meta: meta)
    }

    /// `modal.present`: a sheet, cover, popover, alert… appeared.
    @discardableResult
    public func presented(
        _ modal: String, style: ModalStyle = .sheet, scene: String? = nil, cause: Int? = nil,
        meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.modalPresent(modal: modal, style: style), scene: scene, cause: cause, meta: meta)
    }

    /// `modal.dismiss` of `modal` (and all above it), or of the top one.
    @discardableResult
    public func dismissed(
        _ modal: String? = nil, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.modalDismiss(modal: modal), scene: scene, cause: cause, meta: meta)
    }

    /// `layout.change`: the horizontal size class, and how a
    /// `sidebarAdaptable` TabView now shows its tabs (`tabBar` or `sidebar`),
    /// when the app tracks it.
    @discardableResult
    public func layoutChanged(
        to sizeClass: SizeClass, tabPresentation: TabPresentation? = nil,
        scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.layoutChange(sizeClass: sizeClass, tabPresentation: tabPresentation), scene: scene, cause: cause, meta: meta)
    }

    /// `mark`: an app-defined milestone.
    @discardableResult
    public func marked(
        _ label: String, scene: String? = nil, cause: Int? = nil, meta: [String: JSONValue]? = nil
    ) -> Int? {
        record(.mark(label: label), scene: scene, cause: cause, meta: meta)
    }
}
