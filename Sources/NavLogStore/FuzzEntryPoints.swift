#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// The entry points the libFuzzer harnesses (`Fuzz/`, run by `tools/fuzz`)
/// and the fuzz regression tests feed arbitrary bytes to. Each one must
/// return for any input: errors are expected, a crash or a broken invariant
/// (checked with `precondition`) is a finding.
public enum FuzzEntryPoints {
    /// One NDJSON line through ``EventLineParser``; an event that parses is
    /// applied to a state, and its state's JSON must decode to an equal state.
    public static func eventLine(_ bytes: UnsafeRawBufferPointer) {
        var parser = EventLineParser()
        guard let event = try? parser.parse(bytes) else { return }
        var state = NavigationState(session: event.session)
        _ = state.apply(event)
        checkStateRoundTrip(state)
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
