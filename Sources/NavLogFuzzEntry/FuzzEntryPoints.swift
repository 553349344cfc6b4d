// NavLogFuzzEntry/: The fuzz entry points of `Fuzz/` (`tools/fuzz`): each takes bytes and runs them through one parser or reader of the library.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// The entry points the libFuzzer harnesses (`Fuzz/`, run by `tools/fuzz`)
/// and the fuzz regression tests feed arbitrary bytes to. Each one must
/// return for any input: errors are expected, a crash or a broken invariant
/// (checked with `precondition`) is a finding.
public enum FuzzEntryPoints {
    /// One NDJSON line through ``EventLineParser``; an event that parses is
    /// applied to a state, and its state's JSON must decode to an equal state.
    /// A line the parser calls canonical must be exactly the canonical
    /// writer's bytes for its event. A line the ingest summarizes
    /// (``EventLineParser/summarize(_:)``) must be one the parser reads,
    /// canonical, to an event with the same seq, `t` and session, which
    /// folds into the same state.
    public static func eventLine(_ bytes: UnsafeRawBufferPointer) {
        var parser = EventLineParser(checkingCanonicalForm: true)
        var general = EventLineParser(checkingCanonicalForm: true, usingFastPath: false)
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        let summary = summarizer.summarize(bytes)
        let answer = Result { () throws(EventParseError) in try parser.parse(bytes) }
        let expected = Result { () throws(EventParseError) in try general.parse(bytes) }
        if let summary {
            guard case .success(let event) = expected, general.lastLineIsCanonical,
                  event.seq == summary.seq, event.t == summary.t,
                  bytes[summary.session].elementsEqual(event.session.utf8)
            else { preconditionFailure("fuzz: a summary of a line the parser reads otherwise: \(String(decoding: bytes, as: UTF8.self))") }
            var folded = NavigationProjector(session: event.session)
            var applied = NavigationState(session: event.session)
            summarizer.fold(summary, line: bytes, into: &folded)
            _ = applied.apply(event)
            precondition(folded.state == applied, "fuzz: a summary folds otherwise: \(String(decoding: bytes, as: UTF8.self))")
        }
        // The fast path for canonical lines changes no answer.
        switch (answer, expected) {
        case (.success(let a), .success(let b)):
            precondition(a == b && parser.lastLineIsCanonical == general.lastLineIsCanonical,
                         "fuzz: the fast path read a line differently: \(String(decoding: bytes, as: UTF8.self))")
        case (.failure(let a), .failure(let b)):
            precondition(a.description == b.description,
                         "fuzz: the fast path changed an error: \(String(decoding: bytes, as: UTF8.self))")
        default:
            preconditionFailure("fuzz: the fast path changed the answer: \(String(decoding: bytes, as: UTF8.self))")
        }
        guard case .success(let event) = answer else { return }
        if parser.lastLineIsCanonical {
            var canonical = CanonicalWriter()
            canonical.write(event)
            precondition(canonical.bytes.elementsEqual(bytes),
                         "fuzz: a line called canonical is not: \(String(decoding: bytes, as: UTF8.self))")
        }
        var state = NavigationState(session: event.session)
        _ = state.apply(event)
        checkStateRoundTrip(state)
    }

    /// One NDJSON line through ``EventLineParser/key(_:)``, the segment
    /// writer's read of a line's seq, `t` and session. The property, for
    /// every line:
    /// - when `key` returns facts, the general parser (no fast path) reads
    ///   the line (so a line it rejects never gets facts), and its event has
    ///   exactly that seq, that `t` and a session of exactly those bytes;
    /// - `key` answers for every line ``EventLineParser/summarize(_:)``
    ///   answers for, with the same facts; the lines it answers for beyond
    ///   those are `state.restore` events (whose state it checks without
    ///   building it), each canonical (ingest stores it as it is);
    /// - `key` returning `nil` says nothing: the caller parses the line.
    public static func eventLineKey(_ bytes: UnsafeRawBufferPointer) {
        var keyer = EventLineParser()
        var summarizer = EventLineParser()
        var general = EventLineParser(checkingCanonicalForm: false, usingFastPath: false)
        let key = keyer.key(bytes)
        let summary = summarizer.summarize(bytes)
        let expected = Result { () throws(EventParseError) in try general.parse(bytes) }
        let text = String(decoding: bytes, as: UTF8.self)
        if let summary {
            guard let key, key.seq == summary.seq, key.t == summary.t, key.session == summary.session
            else { preconditionFailure("fuzz: key misses or differs from a summary: \(text)") }
        }
        guard let key else { return }
        guard case .success(let event) = expected
        else { preconditionFailure("fuzz: key gives facts of a line the parser rejects: \(text)") }
        precondition(event.seq == key.seq && event.t == key.t && bytes[key.session].elementsEqual(event.session.utf8),
                     "fuzz: key's seq, t or session differs from the parser's: \(text)")
        if summary == nil {
            guard case .stateRestore = event.kind
            else { preconditionFailure("fuzz: key answers for a line neither summarized nor a state.restore: \(text)") }
            // Such a line is stored as it is (ingest, the segment writer): it must be canonical.
            var canonical = CanonicalWriter()
            canonical.write(event)
            precondition(canonical.bytes.elementsEqual(bytes), "fuzz: key answers for a state.restore line that is not canonical: \(text)")
        }
    }

    /// Arbitrary JSON text as a `state.restore` scene object and as a state
    /// (checkpoint) object; a state that decodes must round-trip through its JSON.
    public static func stateRestore(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let json = try? JSONValue.parse(text) else { return }
        if case .object(let members) = json {
            _ = try? SceneState.decodeRestore(members)
        }
        if let state = try? NavigationState(json: json) {
            checkStateRoundTrip(state)
        }
    }

    /// Arbitrary bytes through every import converter (schemas/imports.md):
    /// each line as a GA4 record and as a React Navigation snapshot, the whole
    /// input as a SwiftUI path (one that decodes must encode and decode to the
    /// same path) and as a CSV event stream whose first record is its header.
    /// Every event a converter hands out must be canonical-writable and
    /// parse back.
    public static func importInput(_ bytes: UnsafeRawBufferPointer) {
        var ga4 = GA4Converter()
        var react = ReactNavigationConverter()
        var events: [Event] = []
        var number = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            number += 1
            try? ga4.convert(line, record: number, into: &events)
            try? react.convert(line, record: number, into: &events)
            start = end + 1
        }
        ga4.finish(into: &events)
        react.finish(into: &events)

        let text = String(decoding: bytes, as: UTF8.self)
        if let path = try? SwiftUIPathCodec.decode(text) {
            let again = try? SwiftUIPathCodec.decode(SwiftUIPathCodec.encode(path))
            precondition(again == path, "fuzz: a SwiftUI path does not survive encode + decode")
        }

        var csv = CSVReader()
        var converter = CSVEventConverter(
            columns: .init(session: ["session_id"], time: "timestamp", event: "event"), screens: GlobPattern("screen:*"))
        var header = true
        let take = { (record: CSVReader.Record) in
            guard record.error == nil else { return }
            if header {
                header = false
                if (try? converter.readHeader(record.fields)) == nil { header = true }
                return
            }
            if let event = try? converter.convert(record.fields) { events.append(event) }
        }
        csv.feed(bytes, take)
        csv.finish(take)

        var parser = EventLineParser()
        var canonical = CanonicalWriter()
        for (i, var event) in events.enumerated() {
            event.seq = i + 1
            canonical.reset()
            canonical.write(event)
            let back = canonical.bytes.withUnsafeBytes { try? parser.parse($0) }
            precondition(back != nil, "fuzz: an imported event's canonical line does not parse: \(canonical.string)")
        }
    }

    /// Arbitrary bytes written to a temporary `.navlog` file, then opened
    /// with ``LogReader``: every event read, the state at a middle seq and
    /// at the end, and the content walk.
    public static func logFile(_ bytes: UnsafeRawBufferPointer) {
        let path = scratchLogPath
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "fuzz: cannot create \(path)")
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
            precondition(n > 0, "fuzz: cannot write \(path)")
            written += n
        }
        close(fd)
        defer { unlink(path) }
        guard let reader = try? LogReader(path: path) else { return }
        _ = try? reader.session()
        let cursor = reader.cursor()
        var count = 0
        var previous = 0
        while let event = try? cursor.next() {
            precondition(event.seq > previous, "fuzz: seq \(event.seq) after \(previous)")
            previous = event.seq
            count += 1
            if count > 1_000_000 { break }
        }
        if let first = reader.firstSeq, let last = reader.lastSeq, last >= first {
            _ = try? reader.state(afterSeq: first + (last - first) / 2)
        }
        _ = try? reader.finalState()
        try? reader.forEachContent { _ in }
        _ = try? reader.refresh()
    }

    /// The temporary file `logFile` writes (one per process).
    private static let scratchLogPath: String = {
        let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(dir)/navlog-fuzz-\(getpid()).navlog"
    }()

    private static func checkStateRoundTrip(_ state: NavigationState) {
        guard let again = try? NavigationState(json: state.checkpointJSON) else {
            preconditionFailure("fuzz: a state's own JSON does not decode: \(state.checkpointJSON.canonicalText)")
        }
        precondition(again == state, "fuzz: state JSON round trip differs: \(state.checkpointJSON.canonicalText)")
    }
}
