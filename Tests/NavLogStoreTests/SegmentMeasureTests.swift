import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// Not a unit test: with `NAVLOG_SEGMENT_MEASURE=FILE.ndjson` (canonical
/// lines, e.g. from `navlog generate`), writes the file into a new segment
/// store beside it and prints the time and sizes. Build it in release.
@Suite("Segment store measurement")
struct SegmentMeasureTests {
    @Test("Write an NDJSON file through the segment writer",
          .enabled(if: ProcessInfo.processInfo.environment["NAVLOG_SEGMENT_MEASURE"] != nil))
    func measure() throws {
        let input = try #require(ProcessInfo.processInfo.environment["NAVLOG_SEGMENT_MEASURE"])
        let store = input + ".store"
        try? FileManager.default.removeItem(atPath: store)
        let bytes = fileBytes(input)
        let clock = ContinuousClock()
        var events = 0
        let elapsed = try clock.measure {
            let writer = try SegmentWriter(store: SegmentStore.create(at: store))
            try bytes.withUnsafeBytes { raw in
                var start = 0
                while start < raw.count {
                    let end = lineEnd(in: raw, from: start)
                    if end > start { try writer.add(UnsafeRawBufferPointer(rebasing: raw[start..<end])) }
                    start = end + 1
                }
            }
            try writer.close()
            events = writer.counts.stored
        }
        print("segment-measure: \(events) events, \(bytes.count) bytes of NDJSON, \(elapsed) writing, store \(store)")
    }
}
