import NavLogCore
import NavLogStore

/// Deterministic pseudo-random numbers (SplitMix64) so that a failing test
/// reproduces: the same seed, the same numbers, on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The canonical NDJSON of events (one line each), as `navlog cat` prints it.
public func ndjson<Events: Sequence<Event>>(_ events: Events) -> [UInt8] {
    var writer = CanonicalWriter()
    for event in events {
        writer.write(event)
        writer.bytes.append(0x0A)
    }
    return writer.bytes
}

/// Every event of the log at `path`, read with the real ``LogReader``.
public func readEvents(_ path: String) throws -> [Event] {
    let reader = try LogReader(path: path)
    let cursor = reader.cursor()
    var events: [Event] = []
    while let event = try cursor.next() { events.append(event) }
    return events
}
