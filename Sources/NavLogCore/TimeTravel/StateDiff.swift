/// The structural difference of two states (docs/commands.md, `navlog diff`):
/// per scene, the tab selection, order and hidden tabs (and the sections,
/// search tab, presentation and customization once either side has them), each stack's common
/// prefix and the two differing tails, split columns and visibility, the
/// modal stacks, the size class and the visible screen.
///
/// ```swift
/// let diff = StateDiff(a, b)
/// if diff.isEmpty { … }                  // a.sameScenes(as: b)
/// for scene in diff.scenes { … }          // only scenes that differ
/// ```
///
/// Empty exactly when the two states are equal in the sense of docs/state.md
/// (their `scenes` are equal); session, seq, time and anomalies are not
/// compared.
public struct StateDiff: Hashable, Sendable {
    /// The scenes that differ, by id in code point order.
    public var scenes: [SceneDiff]

    /// Whether the states' scenes are equal.
    public var isEmpty: Bool { scenes.isEmpty }

    /// Compares `a` with `b`.
    ///
    /// - Complexity: O(size of both states).
    public init(_ a: NavigationState, _ b: NavigationState) {
        var ids = Set(a.scenes.keys)
        ids.formUnion(b.scenes.keys)
        scenes = ids.sorted(by: utf8Less).compactMap { id in
            SceneDiff(scene: id, a.scenes[id], b.scenes[id])
        }
    }
}

/// Which of the two sides something exists in.
public enum DiffPresence: String, Hashable, Sendable {
    case both, onlyA = "a", onlyB = "b"

    init(_ inA: Bool, _ inB: Bool) { self = inA && inB ? .both : inA ? .onlyA : .onlyB }
}

/// A value that differs: what A has and what B has.
public struct DiffChange<Value: Hashable & Sendable>: Hashable, Sendable {
    public var a: Value
    public var b: Value

    /// `nil` when the two are equal.
    public init?(_ a: Value, _ b: Value) {
        guard a != b else { return nil }
        self.a = a
        self.b = b
    }
}

/// Two sequences as their common prefix and what follows it on each side.
public struct DiffTails<Element: Hashable & Sendable>: Hashable, Sendable {
    /// The longest common prefix.
    public var common: [Element]
    /// What follows it in A, and in B.
    public var a: [Element]
    public var b: [Element]

    /// `nil` when the two are equal.
    public init?(_ a: [Element], _ b: [Element]) {
        guard a != b else { return nil }
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        common = Array(a[..<n])
        self.a = Array(a[n...])
        self.b = Array(b[n...])
    }
}

/// How one scene differs.
public struct SceneDiff: Hashable, Sendable {
    /// The scene id.
    public var scene: String
    /// Whether the scene is open in both states or in one only (then the
    /// other side is compared as an empty scene).
    public var presence: DiffPresence
    /// The visible screens, when they differ (`nil` for a side without the scene).
    public var screen: DiffChange<String?>?
    /// The tab selection, when it differs.
    public var selectedTab: DiffChange<String?>?
    /// The tab order, when it differs.
    public var tabOrder: DiffTails<String>?
    /// The hidden tabs (in tab order), when they differ.
    public var hiddenTabs: DiffChange<[String]>?
    /// The sidebar's sections, when they differ (`nil`: never set).
    public var tabSections: DiffChange<[TabSection]?>?
    /// The search tab, when it differs.
    public var searchTab: DiffChange<String?>?
    /// How a `sidebarAdaptable` TabView shows its tabs, when it differs.
    public var tabPresentation: DiffChange<TabPresentation?>?
    /// Whether the user's customization applied, when it differs.
    public var customized: DiffChange<Bool>?
    /// Stacks that differ, by id in code point order.
    public var stacks: [StackDiff]
    /// Splits that differ, by id in code point order.
    public var splits: [SplitDiff]
    /// The modal stacks, when they differ.
    public var modals: DiffTails<ModalPresentation>?
    /// The size class, when it differs.
    public var sizeClass: DiffChange<SizeClass?>?

    /// `nil` when the scenes are equal (both absent counts as equal).
    init?(scene: String, _ a: SceneState?, _ b: SceneState?) {
        guard a != b else { return nil }
        self.scene = scene
        presence = DiffPresence(a != nil, b != nil)
        let x = a ?? SceneState(), y = b ?? SceneState()
        screen = DiffChange(a?.screen, b?.screen)
        selectedTab = DiffChange(x.tabs.selected, y.tabs.selected)
        tabOrder = DiffTails(x.tabs.order, y.tabs.order)
        hiddenTabs = DiffChange(x.tabs.order.filter(x.tabs.hidden.contains), y.tabs.order.filter(y.tabs.hidden.contains))
        tabSections = DiffChange(x.tabs.sections, y.tabs.sections)
        searchTab = DiffChange(x.tabs.searchTab, y.tabs.searchTab)
        tabPresentation = DiffChange(x.tabs.presentation, y.tabs.presentation)
        customized = DiffChange(x.tabs.customized, y.tabs.customized)
        var stackIDs = Set(x.stacks.keys)
        stackIDs.formUnion(y.stacks.keys)
        stacks = stackIDs.sorted(by: utf8Less).compactMap { StackDiff(stack: $0, x.stacks[$0], y.stacks[$0]) }
        var splitIDs = Set(x.splits.keys)
        splitIDs.formUnion(y.splits.keys)
        splits = splitIDs.sorted(by: utf8Less).compactMap { SplitDiff(split: $0, x.splits[$0], y.splits[$0]) }
        modals = DiffTails(x.modals, y.modals)
        sizeClass = DiffChange(x.sizeClass, y.sizeClass)
    }
}

/// How one navigation stack differs.
public struct StackDiff: Hashable, Sendable {
    /// The stack id.
    public var stack: String
    /// Whether the stack exists in both states or in one only (the other
    /// side is then compared as empty).
    public var presence: DiffPresence
    /// The common prefix and the two tails.
    public var values: DiffTails<RouteValue>

    init?(stack: String, _ a: [RouteValue]?, _ b: [RouteValue]?) {
        guard a != b else { return nil }
        self.stack = stack
        presence = DiffPresence(a != nil, b != nil)
        // Present on one side only and empty: the tails are equal, the presence differs.
        values = DiffTails(a ?? [], b ?? []) ?? DiffTails(common: a ?? [])
    }
}

extension DiffTails {
    init(common: [Element]) {
        self.common = common
        a = []
        b = []
    }
}

/// How one split view differs.
public struct SplitDiff: Hashable, Sendable {
    /// The split id.
    public var split: String
    /// Whether the split exists in both states or in one only (the other
    /// side is then compared as a new split: empty columns, `automatic`).
    public var presence: DiffPresence
    /// The columns whose selection differs, in sidebar, content, detail order.
    public var columns: [ColumnChange]
    /// The column visibility, when it differs.
    public var visibility: DiffChange<SplitVisibility>?

    /// One column's selections.
    public struct ColumnChange: Hashable, Sendable {
        public var column: SplitColumn
        public var selection: DiffChange<[RouteValue]>
    }

    init?(split: String, _ a: SplitState?, _ b: SplitState?) {
        guard a != b else { return nil }
        self.split = split
        presence = DiffPresence(a != nil, b != nil)
        let x = a ?? SplitState(), y = b ?? SplitState()
        columns = SplitColumn.allCases.compactMap { column in
            DiffChange(x[column], y[column]).map { ColumnChange(column: column, selection: $0) }
        }
        visibility = DiffChange(x.visibility, y.visibility)
    }
}
