#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The fast path of ``EventLineParser``: a line written exactly as
/// ``CanonicalWriter`` writes it, read in one pass without the general
/// scanner's bookkeeping.
///
/// It knows one layout: an object whose known keys come in canonical
/// (ascending) order with no space, strings of printable ASCII without
/// escapes, integers in their shortest digits, `t` in its 24-byte form, and
/// route values as `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}` (with
/// a leading `"data":…` written canonically, if any), and a
/// `meta` object of little depth exactly as the writer writes it. Every
/// event kind is covered but `tabs.customize`, `tabs.define`
/// with `sections` and `layout.change` with `tabPresentation`
/// (`session.start`'s `app` and `device` are read as `meta` is), and
/// `state.restore` only for a parser that leaves its object out
/// (``LineParserStorage/keepsRestoredJSON``), its state in the layout
/// ``restoredState(_:)`` knows; route `data` deeper than a few
/// levels or not written canonically, fields a kind does not define, and
/// anything else outside that layout are left to the general parser (``parse(_:storage:)`` throws ``NotCanonical``), as is every
/// line the general parser would refuse. So a line it reads is one the
/// general parser reads to the same event and finds canonical — which the
/// tests check line by line against it.
///
/// It reads the line through a raw pointer (no bounds checks: every index
/// is checked against `n` by hand) because it is the hot path of every read.
struct CanonicalLineParser {
    let base: UnsafePointer<UInt8>
    let n: Int
    /// The line: kept as `base` and `n`, and the one-byte fields last, so
    /// that the parser, copied whole a few times a line, stays under 128
    /// bytes, which are copied without a call to `memcpy`.
    var b: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: n) }
    var i = 1
    /// The caller's storage (the parser lives for one line, on its thread).
    let storage: LineParserStorage
    /// Which keys the line has, by ``CanonicalKey`` raw value.
    var present: UInt32 = 0
    /// Where each string field's characters are (between its quotes), by
    /// ``CanonicalKey`` raw value: the storage's slots, valid for the keys
    /// in ``present`` that hold strings.
    let slots: UnsafeMutablePointer<ValueSlot>
    var seq = 0
    var cause = 0
    var count = 0
    /// The route ranges of the line so far (summarizing).
    var routeCount = 0
    /// Where `tabs.define`'s `tabs` array is, brackets included (summarizing).
    var tabs: Range<Int>?
    var hidden = false
    /// Whether the line is read for a ``CanonicalLineSummary``: route values
    /// are then kept as ranges (in the storage's ``LineParserStorage/routeRanges``)
    /// and `meta` is checked, not kept.
    let summarizing: Bool
    /// Whether the line has a member whose key navlog does not know (summarizing).
    var hasUnknownMember = false
    /// Whether a `state.restore` line is summarized too, its state checked
    /// by ``restoredState()`` (``summarize(_:storage:checksRestoredState:)``).
    var checksRestoredState = false

    /// The event of a canonical line; ``NotCanonical`` when the line is not
    /// in the layout this path knows (the general parser then decides).
    ///
    /// It throws instead of returning `nil` so that the event is built in
    /// the caller's result, not built aside and copied there.
    @inline(__always)
    static func parse(_ line: UnsafeRawBufferPointer, storage: LineParserStorage) throws(NotCanonical) -> Event {
        guard line.count >= 2, let start = line.baseAddress else { throw NotCanonical() }
        var parser = CanonicalLineParser(base: start.assumingMemoryBound(to: UInt8.self), n: line.count,
                                         storage: storage, summarizing: false)
        defer { storage.dropParsedValues() }
        guard parser.scan(), let summary = parser.summary() else { throw NotCanonical() }
        return parser.build(summary, storage: storage)
    }

    /// Why ``parse(_:storage:)`` gives no event: the line is not in the
    /// layout this path knows.
    struct NotCanonical: Error {}

    /// The summary of a canonical line, or `nil` when the line is not in the
    /// layout this path knows or has no `seq` (the caller then parses it to
    /// an ``Event``).
    ///
    /// With `checksRestoredState`, of a `state.restore` line too when its
    /// state is one ``restoredState()`` checks: a summary read for its seq,
    /// `t` and session only (such a line is not canonical, and its summary
    /// is not folded).
    @inline(__always)
    static func summarize(_ line: UnsafeRawBufferPointer, storage: LineParserStorage,
                          checksRestoredState: Bool = false) -> CanonicalLineSummary? {
        guard line.count >= 2, let start = line.baseAddress else { return nil }
        if !storage.routeData.isEmpty { storage.routeData.removeAll(keepingCapacity: true) }
        var parser = CanonicalLineParser(base: start.assumingMemoryBound(to: UInt8.self), n: line.count,
                                         storage: storage, summarizing: true)
        parser.checksRestoredState = checksRestoredState
        guard parser.scan() else { return nil }
        return parser.summary()
    }

    init(base: UnsafePointer<UInt8>, n: Int, storage: LineParserStorage, summarizing: Bool) {
        self.base = base
        self.n = n
        self.storage = storage
        self.slots = storage.slots
        self.summarizing = summarizing
    }

    /// How deep a `meta` object may nest here (deeper ones, up to the
    /// parser's limit, go to the general parser).
    static let metaDepth = 8

    /// Reads the line's members, checking their layout; `false` when it is
    /// not the one this path knows.
    @inline(__always)
    mutating func scan() -> Bool {
        guard base[0] == UInt8(ascii: "{"), base[n - 1] == UInt8(ascii: "}") else { return false }
        var last = -1
        // Where the last key's name is, once a key navlog does not know has
        // come: keys are then ordered by their bytes.
        var lastName = 0..<0
        while true {
            let nameStart = i + 1
            guard let key = matchKey() else {
                // A member navlog does not know: kept as it is by a summary
                // of a kind navlog does not know either (``summary()``).
                guard summarizing, let name = unknownMember() else { return false }
                if hasUnknownMember {
                    guard ascending(lastName, name) else { return false }
                } else if last >= 0 {
                    guard ascending(CanonicalKey(rawValue: last)!, name) else { return false }
                }
                hasUnknownMember = true
                lastName = name
                guard let more = afterMember() else { return false }
                if more { continue }
                break
            }
            // Ascending, so no key twice.
            guard key.rawValue > last else { return false }
            if hasUnknownMember {
                let name = nameStart..<(i - 2)
                guard ascending(lastName, name) else { return false }
                lastName = name
            }
            last = key.rawValue
            present |= key.bit
            switch key {
            case .seq:
                guard let v = integer(), v > 0 else { return false }
                seq = v
            case .cause:
                guard let v = integer() else { return false }
                cause = v
            case .count:
                guard let v = integer(), v > 0 else { return false }
                count = v
            case .hidden:
                if matches("true") {
                    hidden = true
                    i += 4
                } else if matches("false") {
                    i += 5
                } else {
                    return false
                }
            case .value:
                if summarizing {
                    guard routeRanges() else { return false }
                } else {
                    guard let v = routeValue() else { return false }
                    storage.keepParsed { $0.route = v }
                }
            case .path, .selection:
                if summarizing {
                    guard routeRangesArray() else { return false }
                } else {
                    guard let v = routeArray() else { return false }
                    storage.keepParsed { $0.routes = v }
                }
            case .state where checksRestoredState:
                guard restoredState() else { return false }
            case .state where !summarizing && !storage.keepsRestoredJSON:
                var built: RestoredScene? = RestoredScene()
                guard restoredState(&built), let scene = built?.scene else { return false }
                storage.keepParsed { _ in storage.restoredScene = scene }
            case .tabs:
                guard let range = stringArray() else { return false }
                if summarizing {
                    tabs = range
                } else {
                    let names = Self.strings(ofArray: range, in: b, names: storage.names)
                    storage.keepParsed { $0.tabs = names }
                }
            case .app, .device, .meta:
                if summarizing || !storage.keepsObjects {
                    // Checked, not kept (the fold has no use for them; a summary's
                    // `meta` is the line's; by a reader that never looks).
                    guard flatMetaObject() || metaObject() != nil else { return false }
                } else {
                    guard let value = objectMembers() else { return false }
                    switch key {
                    case .app: storage.keepParsed { $0.app = value }
                    case .device: storage.keepParsed { $0.device = value }
                    default: storage.keepParsed { $0.meta = value }
                    }
                }
            default:
                // Objects, string arrays and restored states are left to the general parser.
                guard key.isStringValued, let range = string() else { return false }
                slots[key.rawValue] = ValueSlot(start: Int32(range.lowerBound), end: Int32(range.upperBound),
                                                isString: true, hasEscapes: false)
            }
            guard let more = afterMember() else { return false }
            if more { continue }
            break
        }
        return true
    }

    /// Past a member: `,` (another member follows: `true`) or the closing
    /// `}` that ends the line (`false`); `nil` for anything else.
    @inline(__always)
    mutating func afterMember() -> Bool? {
        guard i < n else { return nil }
        if base[i] == UInt8(ascii: ",") {
            i += 1
            return true
        }
        guard base[i] == UInt8(ascii: "}"), i == n - 1 else { return nil }
        return false
    }

    // MARK: The event

    /// What the scanned line says, checked against its kind's row of
    /// ``KindSpec/table``: the fields the kind needs are there, and no field
    /// it does not define.
    @inline(__always)
    func summary() -> CanonicalLineSummary? {
        // An id over SessionID.maxBytes as written is checked, decoded, by the general parser.
        guard present & CanonicalKey.seq.bit != 0, let sessionRange = range(.session), sessionRange.count <= SessionID.maxBytes,
              let tRange = range(.t),
              let typeRange = range(.type), tRange.count == 24,
              let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: b[tRange]))
        else { return nil }
        let tag = KindTag.match(name: UnsafeRawBufferPointer(rebasing: b[typeRange])) ?? .other
        let spec = tag.checks
        // A field the kind does not define would be an extra field; one
        // whose key navlog does not know is kept, as it is, by a kind navlog
        // does not know either (its event keeps it in `extra`, and nothing
        // of it reaches the state). `state.restore` gets here only when its
        // state was read (``restoredState(_:)``).
        guard spec.requiredMask & ~present == 0, present & ~(spec.mask | CanonicalKey.commonMask) == 0,
              !hasUnknownMember || tag == .other
        else { return nil }
        var column: SplitColumn? = nil
        var visibility: SplitVisibility? = nil
        var style: ModalStyle? = nil
        var sizeClass: SizeClass? = nil
        // The kind's enumerations (the checks above leave no other kind's).
        if present & CanonicalKey.column.bit != 0 {
            guard let value: SplitColumn = enumeration(.column) else { return nil }
            column = value
        }
        if present & CanonicalKey.visibility.bit != 0 {
            guard let value: SplitVisibility = enumeration(.visibility) else { return nil }
            visibility = value
        }
        if present & CanonicalKey.style.bit != 0 {
            guard let value: ModalStyle = enumeration(.style) else { return nil }
            style = value
        }
        if present & CanonicalKey.sizeClass.bit != 0 {
            guard let value: SizeClass = enumeration(.sizeClass) else { return nil }
            sizeClass = value
        }
        return CanonicalLineSummary(
            seq: seq, t: t, session: sessionRange, routeCount: routeCount, scene: range(.scene),
            name: tag == .other ? typeRange : spec.textKey.flatMap { range($0) }, tabs: tabs,
            count: present & CanonicalKey.count.bit != 0 ? count : nil,
            tag: tag, column: column, visibility: visibility, style: style, sizeClass: sizeClass, hidden: hidden)
    }

    /// The event of a scanned line whose summary is `s` (`storage` is the parser's).
    /// Made case by case, not through ``KindFields``: this runs for nearly
    /// every line read, and the general struct costs a third more time here.
    @inline(__always)
    func build(_ s: CanonicalLineSummary, storage: LineParserStorage) -> Event {
        var parsed = storage.takeParsedValues()
        @inline(__always) func string(_ range: Range<Int>) -> String {
            storage.names.string(UnsafeRawBufferPointer(rebasing: b[range]))
        }
        let kind: EventKind
        switch s.tag {
        case .stack_push: kind = .stackPush(stack: string(s.name!), value: parsed.route.take()!)
        case .stack_pop: kind = .stackPop(stack: string(s.name!), count: s.count)
        case .tab_select: kind = .tabSelect(tab: string(s.name!))
        case .mark: kind = .mark(label: string(s.name!))
        case .modal_present: kind = .modalPresent(modal: string(s.name!), style: s.style)
        case .modal_dismiss: kind = .modalDismiss(modal: s.name.map { string($0) })
        case .split_select: kind = .splitSelect(split: s.name.map { string($0) }, column: s.column!, selection: parsed.takeRoutes())
        case .stack_popToRoot: kind = .stackPopToRoot(stack: string(s.name!))
        case .stack_set: kind = .stackSet(stack: string(s.name!), path: parsed.takeRoutes())
        case .url_open: kind = .urlOpen(url: string(s.name!))
        case .session_start: kind = .sessionStart(app: parsed.app.take(), device: parsed.device.take())
        case .session_end: kind = .sessionEnd
        case .scene_open: kind = .sceneOpen
        case .scene_close: kind = .sceneClose
        case .tab_visibility: kind = .tabVisibility(tab: string(s.name!), hidden: s.hidden)
        case .split_visibility: kind = .splitVisibility(split: string(s.name!), visibility: s.visibility!)
        case .layout_change: kind = .layoutChange(sizeClass: s.sizeClass!)
        case .other: kind = .other(type: String(decoding: UnsafeRawBufferPointer(rebasing: b[s.name!]), as: UTF8.self))
        case .tabs_define: kind = .tabsDefine(tabs: parsed.tabs.take()!, sections: nil, searchTab: s.name.map { string($0) })
        case .state_restore: kind = .stateRestore(state: storage.restoredScene.take()!, json: [:])
        case .tabs_customize: preconditionFailure("no event is built here of this kind")
        }
        // Short ids come from the name cache (interleaved sessions miss the
        // parser's one-entry memory of the last session).
        let sessionBytes = UnsafeRawBufferPointer(rebasing: b[s.session])
        let session = sessionBytes.count <= StringInterner.maxBytes
            ? storage.names.string(sessionBytes) : storage.session(sessionBytes)
        return Event(kind: kind, session: session, seq: s.seq, t: s.t,
                     scene: s.scene.map { string($0) },
                     cause: present & CanonicalKey.cause.bit != 0 ? cause : nil, meta: parsed.meta.take(), extra: [:])
    }

    /// The string at `range` of the line, through the name cache.
    @inline(__always)
    func string(_ range: Range<Int>) -> String {
        storage.names.string(UnsafeRawBufferPointer(rebasing: b[range]))
    }

    /// Where a string field's characters are, when the line has it.
    @inline(__always)
    func range(_ key: CanonicalKey) -> Range<Int>? {
        guard present & key.bit != 0 else { return nil }
        let slot = slots[key.rawValue]
        return Int(slot.start)..<Int(slot.end)
    }

    /// An enumeration field's value, when the line has it and it is one.
    @inline(__always)
    func enumeration<E: CanonicalEnumeration>(_ key: CanonicalKey) -> E? {
        guard let range = range(key) else { return nil }
        return enumerationCase(at: range)
    }
}
