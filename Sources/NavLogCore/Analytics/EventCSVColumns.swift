/// The flat CSV form of events (`navlog export events --format csv`): one
/// row per event, the common fields, a few columns that say what the event
/// did, and the whole canonical line so nothing is lost.
///
/// | column | holds |
/// |---|---|
/// | `session`, `seq`, `t` | as in the event (`t` in the UTC millisecond form) |
/// | `scene` | the scene it applies to (`main` when absent) |
/// | `type` | the event kind |
/// | `cause` | the causing seq, or empty |
/// | `container` | the stack, tab, split or modal it names, or empty |
/// | `value` | push: the screen name; set/select: the screen names joined by ` > `; tab.select: the tab; tabs.define: the tabs joined by `,`; tabs.customize: the order joined by `,`, then `; hidden ` and the hidden tabs joined by `,`; pop: the count; modal.present: the style; split.visibility / tab.visibility: the new value; layout.change: the size class, then `, ` and the tab presentation when given; mark: the label; url.open: the URL |
/// | `screen` | the scene's new visible screen when the event changed it (a screen view), else empty |
/// | `json` | the canonical NDJSON line |
public enum EventCSVColumns {
    /// The header row.
    public static let header = ["session", "seq", "t", "scene", "type", "cause", "container", "value", "screen", "json"]

    /// Writes one event's row; `screen` is the screen view the event emitted, if any.
    public static func write(_ event: Event, screen: String?, to csv: inout CSVWriter, scratch: inout CanonicalWriter) {
        csv.field(event.session, first: true)
        csv.field(event.seq, first: false)
        scratch.reset()
        event.t.appendRFC3339(to: &scratch.bytes)
        scratch.bytes.withUnsafeBufferPointer { csv.field(bytes: $0, first: false) }
        csv.field(event.sceneID, first: false)
        csv.field(event.type, first: false)
        csv.field(event.cause.map(String.init) ?? "", first: false)
        let (container, value) = describe(event.kind)
        csv.field(container, first: false)
        csv.field(value, first: false)
        csv.field(screen ?? "", first: false)
        scratch.reset()
        scratch.write(event)
        scratch.bytes.withUnsafeBufferPointer { csv.field(bytes: $0, first: false) }
        csv.endRow()
    }

    /// The `container` and `value` columns of a kind.
    static func describe(_ kind: EventKind) -> (String, String) {
        func names(_ path: [RouteValue]) -> String { path.map(\.screenName).joined(separator: " > ") }
        switch kind {
        case .stackPush(let stack, let value): return (stack, value.screenName)
        case .stackPop(let stack, let count): return (stack, String(count ?? 1))
        case .stackPopToRoot(let stack): return (stack, "")
        case .stackSet(let stack, let path): return (stack, names(path))
        case .tabSelect(let tab): return (tab, tab)
        case .tabsDefine(let tabs, _, _): return ("", tabs.joined(separator: ","))
        case .tabsCustomize(let order, let hidden):
            return ("", order.joined(separator: ",") + "; hidden " + hidden.joined(separator: ","))
        case .tabVisibility(let tab, let hidden): return (tab, hidden ? "hidden" : "shown")
        case .splitSelect(let split, let column, let selection): return (split ?? "main", column.rawValue + ": " + names(selection))
        case .splitVisibility(let split, let visibility): return (split, visibility.rawValue)
        case .modalPresent(let modal, let style): return (modal, (style ?? .sheet).rawValue)
        case .modalDismiss(let modal): return (modal ?? "", "")
        case .layoutChange(let sizeClass, let presentation):
            return ("", sizeClass.rawValue + (presentation.map { ", " + $0.rawValue } ?? ""))
        case .mark(let label): return ("", label)
        case .urlOpen(let url): return ("", url)
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .stateRestore, .other: return ("", "")
        }
    }
}
