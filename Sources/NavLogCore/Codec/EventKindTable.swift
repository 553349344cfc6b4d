/// The event kinds docs/events.md defines, one row each in ``KindSpec/table``
/// (and `.other`, a kind navlog does not know).
///
/// # The per-kind field table
///
/// ``KindSpec/table`` is the one place that says, for every kind, its
/// `type` name and its kind-specific fields: which ``CanonicalKey``s, in the
/// order they are checked (the first missing or wrong field is the one a
/// rejection names), and which are required. Each field's value type is the
/// key's (``CanonicalKey/valueType``), the same in every kind but one
/// (`hidden`: a boolean in `tab.visibility`, strings in `tabs.customize`;
/// the row says so, ``FieldSpec/valueType``). Both parsers
/// (``GeneralLineParser``, ``CanonicalLineParser``), the line summary and
/// the ``CanonicalWriter`` read it: the fields a kind may have, the ones it
/// needs, what counts as an extra field.
///
/// Adding an event kind touches these files (the compiler points at each,
/// through an exhaustive switch):
/// 1. `Model/EventKind.swift`: the case (its `typeName` comes from here).
/// 2. This file: the ``KindTag`` case and its row.
/// 3. `Codec/KindFields.swift`: the case made from its fields, its tag, its
///    fields (three exhaustive switches in the one file).
/// 4. Its projection rule: `Projection/SceneState+Apply.swift` (the
///    scene's `apply(_:)`) and the summary fold,
///    `Codec/EventLineParser+Summary.swift` (over ``KindTag``).
/// 5. `Codec/CanonicalWriter+Common.swift`: whether the one-pass writer
///    writes it (`commonLineBound`; `return nil` leaves it to the general
///    writer, which needs nothing).
/// 6. `Codec/CanonicalLineParser.swift`: the fast path's event from a
///    line summary (`build`, case by case: the hot path, where going
///    through ``KindFields`` cost a third more time).
/// 7. `Analytics/EventCSVColumns.swift`: its columns in flat exports.
/// The general parser, the line summary, the general writer,
/// the rejection messages and the canonical check need nothing: they read
/// the row. Replay text, effects and funnel steps (`ReplayStep`,
/// `EventEffect+Changes`, `SessionOccurrences`) have a `default` and change
/// only if the kind should mean something there.
///
/// A kind that needs a field no kind had before also adds the key: its case,
/// name and `valueType` in `Codec/CanonicalKey.swift`. A text, integer,
/// boolean, strings or routes key is then decoded, checked and written by
/// its value type; an enumeration or object key also gets its property in
/// `Codec/KindFields.swift`, a case in `decode` (`GeneralLineParser+Build`)
/// and, for an enumeration the fast path reads, in `summary()`
/// (`CanonicalLineParser.swift`). The one-pass writer (`writeCommon`)
/// writes keys in a fixed order by hand: a kind it takes with a new key
/// adds the key there.
enum KindTag: Int, CaseIterable, Sendable {
    case session_start, session_end, scene_open, scene_close, tabs_define, tabs_customize, tab_select, tab_visibility
    case stack_push, stack_pop, stack_popToRoot, stack_set, split_select, split_visibility
    case modal_present, modal_dismiss, url_open, state_restore, layout_change, mark, other

    /// This kind's row of the table.
    @inline(__always)
    var spec: KindSpec { KindSpec.table[rawValue] }

    /// The masks and text key of this kind's row (see ``KindChecks``).
    @inline(__always)
    var checks: KindChecks { KindChecks.table[rawValue] }

    /// The `type` string of this kind (empty for `.other`).
    var name: String { spec.name }

    /// The kind whose name these escape-free bytes spell, if any (never `.other`).
    @inline(__always)
    static func match(name raw: UnsafeRawBufferPointer) -> KindTag? {
        KindSpec.byName.find(raw)
    }

    /// The kind with this exact name, if any (never `.other`).
    static func named(_ name: String) -> KindTag? {
        KindSpec.byName.find(name)
    }
}

/// What the fast path checks of a kind's row, as plain values: reading them
/// copies no string or array (a ``KindSpec`` row would be retained and
/// released per line, which cost the parser ~10 % of its time).
struct KindChecks: Sendable {
    let mask: UInt32
    let requiredMask: UInt32
    let textKey: CanonicalKey?

    /// One per ``KindTag``, made from ``KindSpec/table``.
    static let table = KindSpec.table.map { KindChecks(mask: $0.mask, requiredMask: $0.requiredMask, textKey: $0.textKey) }
}

/// One kind-specific field of an event kind.
struct FieldSpec: Sendable {
    let key: CanonicalKey
    /// Whether an event of the kind must have it (non-null).
    let required: Bool
    /// Its value type in this kind: the key's, but for `tabs.customize`'s
    /// `hidden`, which is strings where `tab.visibility`'s is a boolean.
    let valueType: FieldValueType

    static func required(_ key: CanonicalKey, as type: FieldValueType? = nil) -> FieldSpec {
        FieldSpec(key: key, required: true, valueType: type ?? key.valueType)
    }
    static func optional(_ key: CanonicalKey, as type: FieldValueType? = nil) -> FieldSpec {
        FieldSpec(key: key, required: false, valueType: type ?? key.valueType)
    }
}

/// One row of the per-kind field table: a kind's name and its fields.
struct KindSpec: Sendable {
    let tag: KindTag
    /// The `type` string.
    let name: String
    /// The kind-specific fields, in the order they are checked.
    let fields: [FieldSpec]
    /// The bits (``CanonicalKey/bit``) of ``fields``, and of the required ones.
    let mask: UInt32
    let requiredMask: UInt32
    /// The kind's one ``FieldValueType/text`` field, if it has one (a kind has at most one).
    let textKey: CanonicalKey?

    init(_ tag: KindTag, _ name: String, _ fields: FieldSpec...) {
        self.tag = tag
        self.name = name
        self.fields = fields
        mask = fields.reduce(0) { $0 | $1.key.bit }
        requiredMask = fields.filter(\.required).reduce(0) { $0 | $1.key.bit }
        let texts = fields.filter { $0.valueType == .text }
        precondition(texts.count <= 1, "a kind has at most one text field")
        textKey = texts.first?.key
    }

    /// The table, one row per ``KindTag``, in its order.
    static let table: [KindSpec] = {
        let rows = [
            KindSpec(.session_start, "session.start", .optional(.app), .optional(.device)),
            KindSpec(.session_end, "session.end"),
            KindSpec(.scene_open, "scene.open"),
            KindSpec(.scene_close, "scene.close"),
            KindSpec(.tabs_define, "tabs.define", .required(.tabs), .optional(.sections), .optional(.searchTab)),
            KindSpec(.tabs_customize, "tabs.customize", .required(.order), .required(.hidden, as: .strings)),
            KindSpec(.tab_select, "tab.select", .required(.tab)),
            KindSpec(.tab_visibility, "tab.visibility", .required(.tab), .required(.hidden)),
            KindSpec(.stack_push, "stack.push", .required(.stack), .required(.value)),
            KindSpec(.stack_pop, "stack.pop", .optional(.count), .required(.stack)),
            KindSpec(.stack_popToRoot, "stack.popToRoot", .required(.stack)),
            KindSpec(.stack_set, "stack.set", .required(.stack), .required(.path)),
            KindSpec(.split_select, "split.select", .optional(.split), .required(.column), .required(.selection)),
            KindSpec(.split_visibility, "split.visibility", .required(.split), .required(.visibility)),
            KindSpec(.modal_present, "modal.present", .required(.modal), .optional(.style)),
            KindSpec(.modal_dismiss, "modal.dismiss", .optional(.modal)),
            KindSpec(.url_open, "url.open", .required(.url)),
            KindSpec(.state_restore, "state.restore", .required(.state)),
            KindSpec(.layout_change, "layout.change", .required(.sizeClass), .optional(.tabPresentation)),
            KindSpec(.mark, "mark", .required(.label)),
            KindSpec(.other, ""),
        ]
        precondition(rows.map(\.tag) == KindTag.allCases, "one row per kind, in order")
        return rows
    }()

    /// Every known kind by its name.
    static let byName = ShortNames(table.filter { $0.tag != .other }.map { ($0.name, $0.tag) })
}
