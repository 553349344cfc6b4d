/// The kind-specific field values of an event, one property per value type
/// (a kind has at most one field of each, but `session.start`'s two
/// objects and the enumerations, which are one property each): what the
/// parsers decode, in the order of the kind's row of ``KindSpec/table``,
/// and what the writer writes. ``EventKind/init(_:_:)`` and
/// ``EventKind/parts`` are the one mapping between them and the kinds.
struct KindFields {
    /// The kind's one text field (`stack`, `tab`, `modal`, `split`, `url`, `label`, `searchTab`).
    var text: String?
    /// The kind's positive integer (`stack.pop`'s `count`).
    var integer: Int?
    /// The kind's boolean (`tab.visibility`'s `hidden`).
    var flag: Bool?
    /// The kind's route value (`stack.push`'s `value`).
    var route: RouteValue?
    /// The kind's route values (`stack.set`'s `path`, `split.select`'s `selection`).
    var routes: [RouteValue]?
    /// The kind's strings (`tabs.define`'s `tabs`, `tabs.customize`'s `order`).
    var strings: [String]?
    /// `tabs.customize`'s `hidden` (strings, where `tab.visibility`'s is ``flag``).
    var hiddenTabs: [String]?
    /// `tabs.define`'s `sections`.
    var sections: [TabSection]?
    /// `session.start`'s objects.
    var app: [String: JSONValue]?
    var device: [String: JSONValue]?
    /// `state.restore`'s scene, and its object as given (route values reduced).
    var restored: (state: SceneState, json: [String: JSONValue])?
    var column: SplitColumn?
    var visibility: SplitVisibility?
    var style: ModalStyle?
    var sizeClass: SizeClass?
    var tabPresentation: TabPresentation?

    /// The value of object field `key`, when it is set.
    func object(_ key: CanonicalKey) -> [String: JSONValue]? {
        switch key {
        case .app: app
        case .device: device
        default: nil
        }
    }

    /// The raw value of enumeration field `key`, when it is set.
    func enumerationName(_ key: CanonicalKey) -> String? {
        switch key {
        case .column: column?.rawValue
        case .visibility: visibility?.rawValue
        case .style: style?.rawValue
        case .sizeClass: sizeClass?.rawValue
        case .tabPresentation: tabPresentation?.rawValue
        default: nil
        }
    }

    /// The strings of strings field `key`, when set (`hidden` is
    /// `tabs.customize`'s, ``hiddenTabs``).
    func strings(_ key: CanonicalKey) -> [String]? {
        key == .hidden ? hiddenTabs : strings
    }

    /// Sets strings field `key` (see ``strings(_:)``).
    mutating func setStrings(_ key: CanonicalKey, _ value: [String]) {
        if key == .hidden { hiddenTabs = value } else { strings = value }
    }
}

extension EventKind {
    /// The kind `tag` with these fields, which the parser checked against
    /// the kind's row (the required ones are set). `.other` takes its
    /// `type` as `text`. The fields' values are moved out of `f` (left
    /// `nil`), not copied: a copy and a release a line, on every line the
    /// general parser reads.
    init(_ tag: KindTag, taking f: inout KindFields) {
        switch tag {
        case .session_start: self = .sessionStart(app: f.app.take(), device: f.device.take())
        case .session_end: self = .sessionEnd
        case .scene_open: self = .sceneOpen
        case .scene_close: self = .sceneClose
        case .tabs_define: self = .tabsDefine(tabs: f.strings.take()!, sections: f.sections.take(), searchTab: f.text.take())
        case .tabs_customize: self = .tabsCustomize(order: f.strings.take()!, hidden: f.hiddenTabs.take()!)
        case .tab_select: self = .tabSelect(tab: f.text.take()!)
        case .tab_visibility: self = .tabVisibility(tab: f.text.take()!, hidden: f.flag!)
        case .stack_push: self = .stackPush(stack: f.text.take()!, value: f.route.take()!)
        case .stack_pop: self = .stackPop(stack: f.text.take()!, count: f.integer)
        case .stack_popToRoot: self = .stackPopToRoot(stack: f.text.take()!)
        case .stack_set: self = .stackSet(stack: f.text.take()!, path: f.routes.take()!)
        case .split_select: self = .splitSelect(split: f.text.take(), column: f.column!, selection: f.routes.take()!)
        case .split_visibility: self = .splitVisibility(split: f.text.take()!, visibility: f.visibility!)
        case .modal_present: self = .modalPresent(modal: f.text.take()!, style: f.style)
        case .modal_dismiss: self = .modalDismiss(modal: f.text.take())
        case .url_open: self = .urlOpen(url: f.text.take()!)
        case .state_restore:
            let (state, json) = f.restored.take()!
            self = .stateRestore(state: state, json: json)
        case .layout_change: self = .layoutChange(sizeClass: f.sizeClass!, tabPresentation: f.tabPresentation)
        case .mark: self = .mark(label: f.text.take()!)
        case .other: self = .other(type: f.text.take()!)
        }
    }

    /// The kind's row in the table.
    var tag: KindTag {
        switch self {
        case .sessionStart: .session_start
        case .sessionEnd: .session_end
        case .sceneOpen: .scene_open
        case .sceneClose: .scene_close
        case .tabsDefine: .tabs_define
        case .tabsCustomize: .tabs_customize
        case .tabSelect: .tab_select
        case .tabVisibility: .tab_visibility
        case .stackPush: .stack_push
        case .stackPop: .stack_pop
        case .stackPopToRoot: .stack_popToRoot
        case .stackSet: .stack_set
        case .splitSelect: .split_select
        case .splitVisibility: .split_visibility
        case .modalPresent: .modal_present
        case .modalDismiss: .modal_dismiss
        case .urlOpen: .url_open
        case .stateRestore: .state_restore
        case .layoutChange: .layout_change
        case .mark: .mark
        case .other: .other
        }
    }

    /// The kind's tag and fields (the inverse of ``init(_:_:)``).
    var parts: (KindTag, KindFields) {
        var f = KindFields()
        let tag: KindTag
        switch self {
        case .sessionStart(let app, let device): tag = .session_start; f.app = app; f.device = device
        case .sessionEnd: tag = .session_end
        case .sceneOpen: tag = .scene_open
        case .sceneClose: tag = .scene_close
        case .tabsDefine(let tabs, let sections, let searchTab):
            tag = .tabs_define; f.strings = tabs; f.sections = sections; f.text = searchTab
        case .tabsCustomize(let order, let hidden): tag = .tabs_customize; f.strings = order; f.hiddenTabs = hidden
        case .tabSelect(let tab): tag = .tab_select; f.text = tab
        case .tabVisibility(let tab, let hidden): tag = .tab_visibility; f.text = tab; f.flag = hidden
        case .stackPush(let stack, let value): tag = .stack_push; f.text = stack; f.route = value
        case .stackPop(let stack, let count): tag = .stack_pop; f.text = stack; f.integer = count
        case .stackPopToRoot(let stack): tag = .stack_popToRoot; f.text = stack
        case .stackSet(let stack, let path): tag = .stack_set; f.text = stack; f.routes = path
        case .splitSelect(let split, let column, let selection):
            tag = .split_select; f.text = split; f.column = column; f.routes = selection
        case .splitVisibility(let split, let visibility): tag = .split_visibility; f.text = split; f.visibility = visibility
        case .modalPresent(let modal, let style): tag = .modal_present; f.text = modal; f.style = style
        case .modalDismiss(let modal): tag = .modal_dismiss; f.text = modal
        case .urlOpen(let url): tag = .url_open; f.text = url
        case .stateRestore(let state, let json): tag = .state_restore; f.restored = (state, json)
        case .layoutChange(let sizeClass, let presentation):
            tag = .layout_change; f.sizeClass = sizeClass; f.tabPresentation = presentation
        case .mark(let label): tag = .mark; f.text = label
        case .other(let type): tag = .other; f.text = type
        }
        return (tag, f)
    }
}
