// Model/: What navlog records: events and their kinds, route values, time, session ids, numbering, filters.

/// One recorded navigation event (docs/events.md).
///
/// Fields the input left out stay out: `scene` is `nil` when absent (the
/// projection reads it as `"main"`), and so are `cause` and `meta`. Fields the
/// docs/events.md does not name are kept in ``extra`` and written back unchanged.
public struct Event: Hashable, Sendable {
    // `kind` comes first so that the memberwise initializer, which the public
    // one (in the extension below) calls, has a signature of its own: a
    // field-by-field initializer here makes the optimizer copy the finished
    // event once more, which showed up in the parser's profile.

    /// The kind and its fields.
    public var kind: EventKind
    /// Which recording the event belongs to; never empty.
    public var session: String
    /// Position in the session, from 1; `0` until a ``Sequencer`` assigns it
    /// to an input event that had none.
    public var seq: Int
    /// When it happened, truncated to milliseconds.
    public var t: Timestamp
    /// The scene (window) it belongs to, as written; `nil` means `"main"`.
    public var scene: String?
    /// The `seq` of the event that caused this one.
    public var cause: Int?
    /// Free-form metadata; always a JSON object when present.
    public var meta: [String: JSONValue]?
    /// Fields docs/events.md does not define for this kind, kept untouched.
    public var extra: [String: JSONValue]

    /// The scene this event applies to: ``scene``, or `"main"` when absent.
    @inlinable public var sceneID: String { scene ?? "main" }

    /// The event's `type` string.
    public var type: String { kind.typeName }
}

extension Event {
    /// An event; `seq` 0 means "not numbered yet".
    public init(
        session: String, seq: Int = 0, t: Timestamp, scene: String? = nil,
        kind: EventKind, cause: Int? = nil, meta: [String: JSONValue]? = nil,
        extra: [String: JSONValue] = [:]
    ) {
        self.init(kind: kind, session: session, seq: seq, t: t, scene: scene, cause: cause, meta: meta, extra: extra)
    }
}
