/// Every field name docs/events.md defines for events, in canonical (code
/// point) order. The canonical writer walks this list; the parser maps keys
/// to it.
enum CanonicalKey: Int, CaseIterable, Sendable {
    case app, cause, column, count, device, hidden, label, meta, modal, order, path, scene,
        searchTab, sections, selection, seq, session, sizeClass, split, stack, state, style, t, tab,
        tabPresentation, tabs, type, url, value, visibility

    var name: String {
        switch self {
        case .app: "app"
        case .cause: "cause"
        case .column: "column"
        case .count: "count"
        case .device: "device"
        case .hidden: "hidden"
        case .label: "label"
        case .meta: "meta"
        case .modal: "modal"
        case .order: "order"
        case .path: "path"
        case .scene: "scene"
        case .searchTab: "searchTab"
        case .sections: "sections"
        case .selection: "selection"
        case .seq: "seq"
        case .session: "session"
        case .sizeClass: "sizeClass"
        case .split: "split"
        case .stack: "stack"
        case .state: "state"
        case .style: "style"
        case .t: "t"
        case .tab: "tab"
        case .tabPresentation: "tabPresentation"
        case .tabs: "tabs"
        case .type: "type"
        case .url: "url"
        case .value: "value"
        case .visibility: "visibility"
        }
    }

    /// `"name":`, to copy into a line.
    var quotedColon: StaticString {
        switch self {
        case .app: "\"app\":"
        case .cause: "\"cause\":"
        case .column: "\"column\":"
        case .count: "\"count\":"
        case .device: "\"device\":"
        case .hidden: "\"hidden\":"
        case .label: "\"label\":"
        case .meta: "\"meta\":"
        case .modal: "\"modal\":"
        case .order: "\"order\":"
        case .path: "\"path\":"
        case .scene: "\"scene\":"
        case .searchTab: "\"searchTab\":"
        case .sections: "\"sections\":"
        case .selection: "\"selection\":"
        case .seq: "\"seq\":"
        case .session: "\"session\":"
        case .sizeClass: "\"sizeClass\":"
        case .split: "\"split\":"
        case .stack: "\"stack\":"
        case .state: "\"state\":"
        case .style: "\"style\":"
        case .t: "\"t\":"
        case .tab: "\"tab\":"
        case .tabPresentation: "\"tabPresentation\":"
        case .tabs: "\"tabs\":"
        case .type: "\"type\":"
        case .url: "\"url\":"
        case .value: "\"value\":"
        case .visibility: "\"visibility\":"
        }
    }
}

extension CanonicalKey {
    /// The bit of this key in a mask of keys (bit order is canonical order).
    @inline(__always) var bit: UInt32 { UInt32(1) << UInt32(rawValue) }

    /// Bit mask of the keys common to every kind (a constant: it is read
    /// for every line).
    @inline(__always) static var commonMask: UInt32 {
        cause.bit | meta.bit | scene.bit | seq.bit | session.bit | t.bit | type.bit
    }

    /// The key with this exact name, if any.
    static func named(_ name: String) -> CanonicalKey? {
        byName.find(name)
    }

    /// The key whose name these escape-free bytes spell, if any.
    @inline(__always)
    static func named(_ raw: UnsafeRawBufferPointer) -> CanonicalKey? {
        byName.find(raw)
    }

    private static let byName = ShortNames(allCases.map { ($0.name, $0) })

    /// What the key's value is, in the kinds that have it (the per-kind
    /// table, ``KindSpec``, says which kinds have it). One key has another
    /// type in one kind: `hidden` is `tabs.customize`'s strings, which its
    /// row says (``FieldSpec/valueType``).
    var valueType: FieldValueType {
        switch self {
        case .label, .modal, .scene, .searchTab, .session, .split, .stack, .tab, .type, .url: .text
        case .column, .sizeClass, .style, .tabPresentation, .visibility: .enumeration
        case .cause: .integer
        case .count, .seq: .positiveInteger
        case .hidden: .bool
        case .app, .device, .meta: .object
        case .order, .tabs: .strings
        case .sections: .sections
        case .value: .route
        case .path, .selection: .routes
        case .state: .restoredState
        case .t: .timestamp
        }
    }

    /// Whether the value is written as a plain JSON string (text, a name
    /// of an enumeration, a timestamp).
    var isStringValued: Bool {
        switch valueType {
        case .text, .enumeration, .timestamp: true
        default: false
        }
    }
}

/// The type of a known field's value.
enum FieldValueType: Sendable {
    /// A string (`stack`, `tab`, `label`, ...).
    case text
    /// A string that is one of the raw values of an enumeration (``SplitColumn``, ...).
    case enumeration
    /// An integer, and one that must be ≥ 1.
    case integer, positiveInteger
    case bool
    /// A JSON object kept as it is.
    case object
    /// An array of strings.
    case strings
    /// `tabs.define`'s `sections`: an array of `{"name": string, "tabs": [string]}`.
    case sections
    /// A route value, and an array of them.
    case route, routes
    /// A scene state (`state.restore`'s `state`).
    case restoredState
    /// An RFC 3339 timestamp.
    case timestamp
}
