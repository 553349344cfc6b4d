/// What `navlog export --redact` does to an event before it is exported:
/// drops the free-form payloads (`meta`, every route value's `data`, and
/// fields navlog does not know, kept in ``Event/extra``) and replaces every
/// route value's `id` with a keyed hash, the same id always giving the same
/// hash under the same key, so screens and paths still group.
///
/// ```swift
/// let redactor = EventRedactor(key: Array("secret".utf8))
/// redactor.redact(event)     // Recipe/apple-pie → Recipe/h-5f1c…
/// ```
///
/// The hash is `h-` and the first 16 hex digits (64 bits) of
/// HMAC-SHA-256(key, id). Session ids, tab, stack, split and modal ids,
/// mark labels, URLs and `session.start`'s `app`/`device` are kept.
public struct EventRedactor: Sendable {
    private let key: [UInt8]

    public init(key: [UInt8]) { self.key = key }

    /// The keyed hash of a route id: `h-` and 16 hex digits.
    public func hash(_ id: String) -> String {
        let digest = SHA256.hmac(key: key, message: Array(id.utf8))
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = Array("h-".utf8)
        for b in digest.prefix(8) {
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The event without its payloads and with hashed route ids.
    public func redact(_ event: Event) -> Event {
        var e = event
        e.meta = nil
        e.extra = [:]
        switch event.kind {
        case .stackPush(let stack, let value): e.kind = .stackPush(stack: stack, value: redact(value))
        case .stackSet(let stack, let path): e.kind = .stackSet(stack: stack, path: path.map(redact))
        case .splitSelect(let split, let column, let selection):
            e.kind = .splitSelect(split: split, column: column, selection: selection.map(redact))
        case .stateRestore(let state, let json):
            var scene = state
            for (id, path) in scene.stacks { scene.stacks[id] = path.map(redact) }
            for (id, split) in scene.splits {
                var s = split
                s.sidebar = s.sidebar.map(redact)
                s.content = s.content.map(redact)
                s.detail = s.detail.map(redact)
                scene.splits[id] = s
            }
            e.kind = .stateRestore(state: scene, json: redactRestore(json))
        default: break
        }
        return e
    }

    /// A route value without `data`, its `id` hashed.
    public func redact(_ value: RouteValue) -> RouteValue {
        RouteValue(type: value.type, id: value.id.map(hash), data: nil)
    }

    /// The `state` object of a `state.restore` as given: route values in
    /// `stacks` and in `splits` columns redacted, everything else kept.
    private func redactRestore(_ json: [String: JSONValue]) -> [String: JSONValue] {
        var out = json
        func routes(_ value: JSONValue) -> JSONValue {
            guard case .array(let items) = value else { return value }
            return .array(items.map { item in
                guard case .object(var members) = item else { return item }
                members["data"] = nil
                if case .string(let id)? = members["id"] { members["id"] = .string(hash(id)) }
                return .object(members)
            })
        }
        if case .object(var stacks)? = json["stacks"] {
            for (id, path) in stacks { stacks[id] = routes(path) }
            out["stacks"] = .object(stacks)
        }
        if case .object(var splits)? = json["splits"] {
            for (id, split) in splits {
                guard case .object(var columns) = split else { continue }
                for column in ["sidebar", "content", "detail"] where columns[column] != nil { columns[column] = routes(columns[column]!) }
                splits[id] = .object(columns)
            }
            out["splits"] = .object(splits)
        }
        return out
    }
}
