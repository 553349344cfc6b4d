/// The kind of an event with the fields that kind defines (docs/events.md).
///
/// Optional fields are `nil` when the input left them out; defaults (such as
/// a pop `count` of 1) are applied by the projection, not stored.
public enum EventKind: Hashable, Sendable {
    case sessionStart(app: [String: JSONValue]?, device: [String: JSONValue]?)
    case sessionEnd
    case sceneOpen
    case sceneClose
    /// `sections` and `searchTab` are `nil` when the input left them out.
    case tabsDefine(tabs: [String], sections: [TabSection]? = nil, searchTab: String? = nil)
    /// The user's own customization (TabViewCustomization): order and hidden tabs.
    case tabsCustomize(order: [String], hidden: [String])
    case tabSelect(tab: String)
    case tabVisibility(tab: String, hidden: Bool)
    case stackPush(stack: String, value: RouteValue)
    case stackPop(stack: String, count: Int?)
    case stackPopToRoot(stack: String)
    case stackSet(stack: String, path: [RouteValue])
    case splitSelect(split: String?, column: SplitColumn, selection: [RouteValue])
    case splitVisibility(split: String, visibility: SplitVisibility)
    case modalPresent(modal: String, style: ModalStyle?)
    case modalDismiss(modal: String?)
    case urlOpen(url: String)
    /// `state` is the restored scene; `json` is the object as given
    /// (route values reduced), which is what the canonical form writes back.
    indirect case stateRestore(state: SceneState, json: [String: JSONValue])
    /// `tabPresentation` is `nil` when the input left it out.
    case layoutChange(sizeClass: SizeClass, tabPresentation: TabPresentation? = nil)
    case mark(label: String)
    /// A kind navlog does not know: kept and shown, no effect on state.
    case other(type: String)

    /// The `type` string of this kind (from the per-kind table, ``KindSpec``).
    public var typeName: String {
        if case .other(let type) = self { return type }
        return tag.name
    }
}

/// A column of a NavigationSplitView.
public enum SplitColumn: String, Hashable, Sendable, CaseIterable {
    case sidebar, content, detail
}

/// NavigationSplitViewVisibility.
public enum SplitVisibility: String, Hashable, Sendable, CaseIterable {
    case all, doubleColumn, detailOnly, automatic
}

/// How a modal is presented.
public enum ModalStyle: String, Hashable, Sendable, CaseIterable {
    case sheet, fullScreenCover, popover, alert, confirmationDialog, inspector
}

/// The horizontal size class of a scene.
public enum SizeClass: String, Hashable, Sendable, CaseIterable {
    case compact, regular
}

/// How a `sidebarAdaptable` TabView shows its tabs.
public enum TabPresentation: String, Hashable, Sendable, CaseIterable {
    case tabBar, sidebar
}

/// A group of tabs in the sidebar (`TabSection("Collections") { … }`).
public struct TabSection: Hashable, Sendable {
    /// The section's title.
    public var name: String
    /// Its tabs, in order.
    public var tabs: [String]
    public init(name: String, tabs: [String]) {
        self.name = name
        self.tabs = tabs
    }
}
