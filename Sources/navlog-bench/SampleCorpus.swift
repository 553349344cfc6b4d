import NavLogCore
import NavLogSample

/// Generated events of one session as canonical NDJSON in memory: the
/// bytes `navlog generate` writes, with where each line starts.
struct SampleCorpus {
    /// Every line, each ending in `\n`.
    let bytes: [UInt8]
    /// Start of each line in ``bytes``; one more entry at the end (`bytes.count`).
    let lineStarts: [Int]

    var eventCount: Int { lineStarts.count - 1 }

    /// `count` events of one generated session (the generator `navlog
    /// generate` uses, with `--sessions 1 --events-per-session count-count`).
    init(events count: Int, seed: UInt64) {
        var writer = CanonicalWriter(capacity: count * 140)
        var starts: [Int] = []
        starts.reserveCapacity(count + 1)
        for event in SampleCorpus.generator(events: count, seed: seed).events() {
            starts.append(writer.bytes.count)
            writer.write(event)
            writer.bytes.append(0x0A)
        }
        starts.append(writer.bytes.count)
        bytes = writer.bytes
        lineStarts = starts
    }

    /// One session of exactly `count` events.
    static func generator(events count: Int, seed: UInt64) -> SampleGenerator {
        SampleGenerator(.init(sessions: 1, seed: seed, eventsPerSession: max(1, count)...max(1, count)))
    }

    /// Calls `body` with each line, without its newline.
    func forEachLine(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { all in
            for i in 0..<eventCount {
                try body(UnsafeRawBufferPointer(rebasing: all[lineStarts[i]..<(lineStarts[i + 1] - 1)]))
            }
        }
    }
}
