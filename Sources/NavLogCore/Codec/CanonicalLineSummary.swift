/// What ``CanonicalLineParser`` reads from a canonical line when it is asked
/// for a summary instead of an ``Event``: the kind and its scalar fields as
/// values, every string as a position in the line. Enough to fold the line
/// into a ``NavigationState`` (``EventLineParser/fold(_:line:into:)``) and to
/// store it as it is, without building the event: no `String` is made for
/// the session, `meta` is checked and dropped, and route values stay bytes
/// until the fold needs them (a route's `data` is read as a value).
///
/// A summary is only made of a line the fast path reads (and of a kind
/// navlog does not know with members it does not know either, kept as
/// they are), that has a `seq`; it means exactly the event
/// ``EventLineParser/parse(_:)`` reads from the same line (the tests check
/// both, line by line and state by state). Its ranges are valid for that
/// line only, and its routes until the parser reads another line.
package struct CanonicalLineSummary {
    // Widest fields first, the one-byte ones last: 127 bytes, which are
    // copied without a call to `memcpy` (more than 128 are not).

    /// The event's seq (a summary always has one).
    package let seq: Int
    /// The event's `t`.
    package let t: Timestamp
    /// Where the session id's bytes are.
    package let session: Range<Int>
    /// How many route values `value`, `path` or `selection` has (``routes``).
    let routeCount: Int
    /// Where the scene id's bytes are; `nil` for the main scene.
    let scene: Range<Int>?
    /// The kind's one name field, when it has it: the stack of a stack
    /// event, the tab of a tab event, the modal, the split, the label, the
    /// url; for a kind navlog does not know, its `type`.
    let name: Range<Int>?
    /// `tabs.define`'s `tabs` array, brackets included: strings without
    /// escapes, so each name is what lies between two quotes.
    let tabs: Range<Int>?
    /// `stack.pop`'s count, when given.
    let count: Int?
    /// The event's kind.
    let tag: KindTag
    /// `split.select`'s column.
    let column: SplitColumn?
    /// `split.visibility`'s visibility.
    let visibility: SplitVisibility?
    /// `modal.present`'s style, when given.
    let style: ModalStyle?
    /// `layout.change`'s size class.
    let sizeClass: SizeClass?
    /// `tab.visibility`'s `hidden`.
    let hidden: Bool

    /// The route values of `value`, `path` or `selection`: indices into the
    /// parser's route ranges.
    var routes: Range<Int> { 0..<routeCount }

    /// Whether the event is a `session.end`.
    package var endsSession: Bool { tag == .session_end }
}

/// Where one route value's `type` and `id` are in a line, and its `data`.
struct RouteRanges {
    var typeStart: Int32
    var typeEnd: Int32
    /// `idStart == idEnd` when the value has no id (an id is never empty
    /// on the fast path).
    var idStart: Int32
    var idEnd: Int32
    /// Where its `data` is in the parser's route data, or -1 for none.
    var data: Int32
}
