/// What ``ScreenPathTally`` counts, from a store's screen projection or
/// from sessions' occurrences: paths of name ids (each distinct screen name
/// gets one, and the anchor glob is matched once per name), turned into
/// names when the tally is merged or its top paths are asked for.
struct ScreenPathIDCounts: Sendable {
    /// A path of ids → how many times, in how many sessions, and the last
    /// session (by ordinal) that counted it.
    var counts: [[Int32]: (count: Int, sessions: Int, last: Int)] = [:]
    private var ids: [String: Int32] = [:]
    private var names: [String] = []
    /// Per id: whether the name matches the anchor glob.
    private var anchored: [Bool] = []
    /// The blocks the tables are of, and per block its names' and scenes' ids.
    private var owner: ScreenProjectionBlocks?
    private var blockNames: [[Int32]?] = []
    private var blockScenes: [[Int32]?] = []
    /// The session being counted: its screen views' scene and name ids, the scenes in order of appearance, one scene's names, a path.
    private var views: [(scene: Int32, name: Int32)] = []
    private var sceneOrder: [Int32] = []
    private var sceneNames: [Int32] = []
    private var path: [Int32] = []
    private var ordinal = 0
    /// The scenes of the session being counted from occurrences, in order of appearance.
    private var sessionScenes: [String] = []

    static let startID: Int32 = -1
    static let endID: Int32 = -2

    func name(_ id: Int32) -> String {
        id == Self.startID ? ScreenPathTally.startMarker : id == Self.endID ? ScreenPathTally.endMarker : names[Int(id)]
    }

    private mutating func id(_ name: String, anchor: GlobPattern?) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        ids[name] = id
        names.append(name)
        anchored.append(anchor?.matches(name) ?? false)
        return id
    }

    /// The ids of block `b`'s names and scenes, made on first use.
    private mutating func tables(_ b: Int, _ block: ScreenProjectionBlock, anchor: GlobPattern?) -> (names: [Int32], scenes: [Int32]) {
        if let names = blockNames[b], let scenes = blockScenes[b] { return (names, scenes) }
        let names = block.names.map { id($0, anchor: anchor) }
        // Scenes share the id space (they are only compared with each other).
        let scenes = block.sceneNames.map { id($0, anchor: nil) }
        blockNames[b] = names
        blockScenes[b] = scenes
        return (names, scenes)
    }

    /// Counts one session's paths (``ScreenPathTally/add(_:)``, on ids);
    /// returns how many paths it counted.
    mutating func add(_ session: ProjectedSession, mode: ScreenPathTally.Mode, depth: Int, anchor: GlobPattern?) -> Int {
        if owner !== session.projection {
            owner = session.projection
            blockNames = Array(repeating: nil, count: session.projection.blocks.count)
            blockScenes = blockNames
        }
        ordinal += 1
        views.removeAll(keepingCapacity: true)
        sceneOrder.removeAll(keepingCapacity: true)
        session.forEachRun { block, b, i in
            let (names, scenes) = tables(b, block, anchor: anchor)
            block.forEachRow(of: i) { _, _, kind, name, scene in
                guard kind == 0 else { return }
                let sceneID = scenes[scene]
                if !sceneOrder.contains(sceneID) { sceneOrder.append(sceneID) }
                views.append((sceneID, names[name]))
            }
        }
        return countViews(mode: mode, depth: depth)
    }

    /// Counts one session's paths from its occurrences (its screen views;
    /// ``ScreenPathTally/add(_:)``, on ids); returns how many paths it counted.
    mutating func add(_ occurrences: [FunnelOccurrence], mode: ScreenPathTally.Mode, depth: Int, anchor: GlobPattern?) -> Int {
        ordinal += 1
        views.removeAll(keepingCapacity: true)
        sceneOrder.removeAll(keepingCapacity: true)
        // A session's scenes are few: numbered in order of appearance.
        sessionScenes.removeAll(keepingCapacity: true)
        for o in occurrences where o.target == .screen {
            let scene: Int32
            if let known = sessionScenes.firstIndex(of: o.scene) {
                scene = Int32(known)
            } else {
                scene = Int32(sessionScenes.count)
                sessionScenes.append(o.scene)
                sceneOrder.append(scene)
            }
            views.append((scene, id(o.name, anchor: anchor)))
        }
        return countViews(mode: mode, depth: depth)
    }

    /// Counts the paths of the session in ``views`` (scenes in ``sceneOrder``);
    /// returns how many.
    private mutating func countViews(mode: ScreenPathTally.Mode, depth: Int) -> Int {
        var counted = 0
        // Moved out while counting (the closure changes `counts`), then back.
        var (path, sceneNames) = (self.path, self.sceneNames)
        let (anchored, ordinal) = (self.anchored, self.ordinal)
        (self.path, self.sceneNames) = ([], [])
        defer { (self.path, self.sceneNames) = (path, sceneNames) }
        for scene in sceneOrder {
            sceneNames.removeAll(keepingCapacity: true)
            for view in views where view.scene == scene { sceneNames.append(view.name) }
            ScreenPathTally.forEachPath(mode: mode, depth: depth, in: sceneNames[...], matches: { anchored[Int($0)] },
                                        start: Self.startID, end: Self.endID, into: &path) { path in
                counted += 1
                func bump(_ entry: inout (count: Int, sessions: Int, last: Int)) {
                    entry.count += 1
                    if entry.last != ordinal { (entry.sessions, entry.last) = (entry.sessions + 1, ordinal) }
                }
                bump(&counts[path, default: (0, 0, 0)])
            }
        }
        return counted
    }
}

extension ScreenPathTally {
    /// Counts one session from a screen projection's columns: the same
    /// count as ``add(_:)`` of its screen views, on name ids.
    public mutating func add(projected session: ProjectedSession) {
        sessions += 1
        total += byID.add(session, mode: mode, depth: depth, anchor: anchor)
    }
}
