#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Scratch space of an ``EventLineParser``: the field slots, the last
/// session id, the name cache, the values the fast path reads ahead.
///
/// Raw buffers and `@exclusivity(unchecked)` because every line reads and
/// writes them several times and a parser lives on one thread: no
/// bounds, uniqueness or exclusivity checks on the hot path.
final class LineParserStorage {
    /// Where each known field's value is, by ``CanonicalKey`` raw value.
    let slots = UnsafeMutablePointer<ValueSlot>.allocate(capacity: CanonicalKey.allCases.count)
    /// The last session id's bytes (in a buffer of `sessionCapacity`) and string.
    @exclusivity(unchecked) private var sessionBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    @exclusivity(unchecked) private var sessionCapacity = 64
    @exclusivity(unchecked) private var sessionCount = 0
    @exclusivity(unchecked) var session: String = ""
    /// The last session id's bytes.
    var sessionBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: sessionBuffer, count: sessionCount) }
    /// Where values are written again to compare them with the line's.
    @exclusivity(unchecked) var scratch = CanonicalWriter(capacity: 1024)
    /// The date of the last canonical `t`.
    @exclusivity(unchecked) var timestamps = CanonicalTimestampCache()
    /// Whether lines are checked for being canonical.
    let checksCanonicalForm: Bool
    /// The check's answer for the last line (set once the line is accepted).
    @exclusivity(unchecked) var lastLineIsCanonical = false
    /// Whether lines are tried with ``CanonicalLineParser`` first.
    @exclusivity(unchecked) var usesFastPath = true
    /// How the fast path has fared on the lines before, so that a file of
    /// another producer's lines is not tried on it line after line.
    @exclusivity(unchecked) var fastPathDeclines = FastPathDeclines()
    /// Whether the fast path keeps `session.start`'s `app` and `device`
    /// and any event's `meta`; when not, it checks them and leaves them out
    /// of the event.
    @exclusivity(unchecked) var keepsObjects = true
    /// Whether a `state.restore` event keeps its `state` object as given
    /// (``EventKind/stateRestore(state:json:)``'s `json`); when not, the
    /// fast path builds its scene alone and leaves the object empty.
    @exclusivity(unchecked) var keepsRestoredJSON = true

    init(checkingCanonicalForm: Bool) {
        checksCanonicalForm = checkingCanonicalForm
    }

    /// Short names seen before (stack ids, tabs, route types and ids).
    let names = StringInterner()
    /// Objects seen before (`app`, `device`, `meta`), decoded once; the
    /// cache is made when the general parser first reads such an object.
    var objects: ObjectValueCache {
        if let made = objectCache { return made }
        let made = ObjectValueCache()
        objectCache = made
        return made
    }
    @exclusivity(unchecked) private var objectCache: ObjectValueCache?
    /// The canonical bytes of the last line's `app`, `device` and `meta`,
    /// when the general parser read it and found them in ``objects``.
    @exclusivity(unchecked) var lineObjects = CanonicalWriter.WrittenObjects()
    /// The route values of the last line summarized (``CanonicalLineSummary/routes``).
    @exclusivity(unchecked) private(set) var routeRanges = UnsafeMutablePointer<RouteRanges>.allocate(capacity: 16)
    @exclusivity(unchecked) private var routeCapacity = 16

    /// The `data` of the route values of the last line summarized.
    @exclusivity(unchecked) var routeData: [JSONValue] = []

    /// The values ``CanonicalLineParser`` reads from a line it parses to an
    /// event, until the event takes them (``takeParsedValues()``), and
    /// whether it holds any.
    @exclusivity(unchecked) private var parsedValues = ParsedValues()
    @exclusivity(unchecked) private var holdsParsedValues = false

    /// The route value of `value`, those of `path` or `selection`, `meta`,
    /// `session.start`'s `app` and `device`, `tabs.define`'s `tabs`.
    struct ParsedValues {
        var route: RouteValue?
        var routes: [RouteValue] = []
        var meta: [String: JSONValue]?
        var app: [String: JSONValue]?
        var device: [String: JSONValue]?
        var tabs: [String]?

        /// `routes`, moved out.
        @inline(__always)
        mutating func takeRoutes() -> [RouteValue] {
            var taken: [RouteValue] = []
            swap(&taken, &routes)
            return taken
        }
    }

    /// `state.restore`'s scene, kept and dropped with ``ParsedValues`` but
    /// apart: it would make them too large (over 128 bytes) to be taken
    /// without a call to `memcpy`.
    @exclusivity(unchecked) var restoredScene: SceneState?

    /// Keeps a value read for the event of the line being parsed.
    @inline(__always)
    func keepParsed(_ keep: (inout ParsedValues) -> Void) {
        keep(&parsedValues)
        holdsParsedValues = true
    }

    /// The values kept for the event, moved out (none are left).
    @inline(__always)
    func takeParsedValues() -> ParsedValues {
        var taken = ParsedValues()
        if holdsParsedValues {
            swap(&taken, &parsedValues)
            holdsParsedValues = false
        }
        return taken
    }

    /// Drops the values kept for a line the fast path did not read after all.
    @inline(__always)
    func dropParsedValues() {
        if holdsParsedValues {
            parsedValues = ParsedValues()
            restoredScene = nil
            holdsParsedValues = false
        }
    }

    /// Keeps route value `index` of the line being summarized.
    @inline(__always)
    func setRouteRanges(_ ranges: RouteRanges, at index: Int) {
        if index == routeCapacity { growRouteRanges() }
        routeRanges[index] = ranges
    }

    @inline(never)
    private func growRouteRanges() {
        let grown = UnsafeMutablePointer<RouteRanges>.allocate(capacity: 2 * routeCapacity)
        grown.moveInitialize(from: routeRanges, count: routeCapacity)
        routeRanges.deallocate()
        routeRanges = grown
        routeCapacity *= 2
    }

    /// Known keys written plainly.
    let keys = CanonicalKeyMatcher.shared

    deinit {
        slots.deallocate()
        sessionBuffer.deallocate()
        routeRanges.deallocate()
    }

    /// The session id for these bytes, reusing the last one when equal (and
    /// a short one seen before: interleaved sessions alternate).
    func session(_ raw: UnsafeRawBufferPointer) -> String {
        let n = raw.count
        if n == sessionCount, n == 0 || memcmp(sessionBuffer, raw.baseAddress!, n) == 0 { return session }
        if n > sessionCapacity {
            sessionBuffer.deallocate()
            sessionCapacity = max(n, 2 * sessionCapacity)
            sessionBuffer = .allocate(byteCount: sessionCapacity, alignment: 8)
        }
        if n > 0 { sessionBuffer.copyMemory(from: raw.baseAddress!, byteCount: n) }
        sessionCount = n
        session = n <= StringInterner.maxBytes ? names.string(raw) : String(decoding: raw, as: UTF8.self)
        return session
    }
}

/// When to try ``CanonicalLineParser`` on a line: always, until it has
/// declined 8 lines in a row (another producer's lines, which the general
/// parser reads); then on every 64th line only, and on every line again
/// once it reads one. Either parser gives the same answer for a canonical
/// line, so this decides speed alone.
struct FastPathDeclines {
    private var inARow = 0

    @inline(__always) mutating func shouldTry() -> Bool {
        if inARow < 8 || inARow & 63 == 0 { return true }
        inARow += 1  // a line not tried counts as one declined
        return false
    }

    @inline(__always) mutating func accepted() { inARow = 0 }
    @inline(__always) mutating func declined() { inARow += 1 }
}
