/// What navlog keeps of one React Navigation `NavigationState` tree: the
/// tabs, the stacks and the modals it shows (schemas/imports.md,
/// "react-navigation").
///
/// The tree is read the way the user sees it:
/// - a `tab` or `drawer` navigator gives the scene's tabs: `routeNames` (else
///   the routes' names) in order, the focused route selected, and each tab
///   route's nested navigator its stack, named after the tab;
/// - a `stack` navigator (or one with no `type`) gives a stack: its routes
///   in order, bottom first; a route whose nested navigator has state
///   contributes that navigator's screens instead of itself (only the focused
///   route of a nested tab or drawer);
/// - at the root, a stack whose route holds a tab or drawer navigator gives
///   stack `main` for the routes below that one, the tabs from it, and one
///   modal (a sheet, id and stack = the route's `key`, else its name) for
///   each route above it — React Navigation's "screens over the tabs".
///
/// A route becomes `{"type": name, "id": params.id, "data": params}`.
public struct ReactNavigationScene: Hashable, Sendable {
    /// The tab order, `nil` when the tree has no tab or drawer navigator at the top.
    public var tabs: [String]?
    /// The selected tab.
    public var selectedTab: String?
    /// Each stack, bottom first.
    public var stacks: [String: [RouteValue]]
    /// The modals presented, bottom first (each has a stack of its id).
    public var modals: [String]

    public init(tabs: [String]? = nil, selectedTab: String? = nil, stacks: [String: [RouteValue]] = [:], modals: [String] = []) {
        self.tabs = tabs
        self.selectedTab = selectedTab
        self.stacks = stacks
        self.modals = modals
    }

    /// Reads a `NavigationState` object; errors name the field (`state.routes[1].name`).
    public init(state json: JSONValue, field: String = "state") throws(EventParseError) {
        self.init()
        let root = try Navigator(json, path: field)
        if root.isTabs {
            readTabs(root)
            return
        }
        if let i = root.routes.firstIndex(where: { $0.nested?.isTabs == true }) {
            stacks["main"] = root.routes[..<i].leaves()
            readTabs(root.routes[i].nested!)
            for route in root.routes[(i + 1)...] {
                let id = route.key ?? route.name
                modals.append(id)
                stacks[id] = route.leaves()
            }
            return
        }
        stacks["main"] = root.leaves()
    }

    private mutating func readTabs(_ nav: Navigator) {
        tabs = nav.routeNames ?? nav.routes.map(\.name)
        selectedTab = nav.routes[nav.index].name
        for route in nav.routes {
            if let nested = route.nested { stacks[route.name] = nested.leaves() }
        }
    }
}

/// One navigator object of a React Navigation state, checked.
struct Navigator {
    var isTabs: Bool
    var routes: [NavigatorRoute]
    var index: Int
    var routeNames: [String]?

    init(_ json: JSONValue, path: String) throws(EventParseError) {
        let f = try ImportFields(json, path: path)
        let type = try f.string("type")
        isTabs = type == "tab" || type == "drawer"
        guard let items = try f.array("routes") else { throw .missingField(field: f.name("routes")) }
        guard !items.isEmpty else { throw .invalidValue(field: f.name("routes"), reason: "empty; a navigator has at least one route") }
        routes = []
        for (k, item) in items.enumerated() { routes.append(try NavigatorRoute(item, path: f.name("routes") + "[\(k)]")) }
        let index = try f.integer("index") ?? (isTabs ? 0 : items.count - 1)
        guard index >= 0, index < items.count else {
            throw .invalidValue(field: f.name("index"), reason: "\(index) is outside routes (0…\(items.count - 1))")
        }
        self.index = index
        if let names = try f.array("routeNames") {
            var list: [String] = []
            for (k, n) in names.enumerated() {
                guard case .string(let s) = n else {
                    throw .wrongType(field: f.name("routeNames") + "[\(k)]", expected: "string", found: n.typeName)
                }
                list.append(s)
            }
            routeNames = list
        }
    }

    /// The screens it shows, bottom first: every route of a stack, the
    /// focused route of a tab or drawer navigator.
    func leaves() -> [RouteValue] {
        if isTabs { return routes[index].leaves() }
        return routes[...].leaves()
    }
}

/// One route of a navigator: `{key, name, params, state}`.
struct NavigatorRoute {
    var key: String?
    var name: String
    var params: JSONValue?
    /// The nested navigator (none or one).
    var nestedNavigators: [Navigator]

    init(_ json: JSONValue, path: String) throws(EventParseError) {
        let f = try ImportFields(json, path: path)
        name = try f.requiredString("name")
        guard !name.isEmpty else { throw .invalidValue(field: f.name("name"), reason: "empty route name") }
        key = try f.string("key")
        params = f["params"]
        if let p = params, case .object = p {} else if let p = params {
            throw .wrongType(field: f.name("params"), expected: "object", found: p.typeName)
        }
        nestedNavigators = try f["state"].map { (s) throws(EventParseError) in [try Navigator(s, path: f.name("state"))] } ?? []
    }

    var nested: Navigator? { nestedNavigators.first }

    /// The route value: `type` the name, `id` from `params.id`, `data` the params.
    var value: RouteValue {
        var id: String?
        if case .object(let p)? = params {
            switch p["id"] {
            case .string(let s)?: id = s
            case .number(let n)?: id = n
            default: break
            }
        }
        return RouteValue(type: name, id: id, data: params)
    }

    func leaves() -> [RouteValue] {
        if let nested { return nested.leaves() }
        return [value]
    }
}

extension ArraySlice<NavigatorRoute> {
    func leaves() -> [RouteValue] {
        var out: [RouteValue] = []
        for route in self { out.append(contentsOf: route.leaves()) }
        return out
    }
}
