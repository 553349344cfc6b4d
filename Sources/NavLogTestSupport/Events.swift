// NavLogTestSupport/: What the tests and the bench share: events and stores to test with, temporary directories, the process runner, a server started on loopback and stopped.
import NavLogCore
import NavLogSample
import NavLogStore

/// Deterministic pseudo-random numbers (the SplitMix64 steps of
/// ``SeededRandom``) so that a failing test reproduces: the same seed, the
/// same numbers, on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 { SeededRandom.splitMix64(&state) }
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
