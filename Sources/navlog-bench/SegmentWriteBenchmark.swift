#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// `navlog-bench segment-write --input FILE.ndjson --store STORE`: writes the canonical lines
/// of FILE through the segment writer into a new segment store at STORE and
/// prints the wall time (one run: time it beside `lz4 -1` and under
/// `/usr/bin/time` for the peak RSS, as tools/segment-measure does). The
/// input is read in 4 MiB chunks, so the RSS is the writer's.
enum SegmentWriteBenchmark {
    static let suite = BenchmarkSuite(name: "segment-write", summary: "segment writer on one NDJSON file: wall time",
                                      options: ["--input FILE.ndjson --store STORE"]) { options in
        try run(input: options.string("input"), store: options.string("store"))
    }

    static func run(input path: String?, store: String?) throws {
        guard let path, let store else { throw BenchmarkFailure("usage: navlog-bench segment-write --input FILE.ndjson --store STORE") }
        guard let input = fopen(path, "rb") else { throw BenchmarkFailure("cannot open \(path)") }
        defer { fclose(input) }
        let start = monotonicSeconds()
        let writer = try SegmentWriter(store: SegmentStore.create(at: store))
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        var kept = 0
        while true {
            // fread and copyMemory stay inside the 4 MiB buffer: `kept` < its size, reads fill the rest.
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress! + kept, 1, $0.count - kept, input) }
            let filled = kept + read
            let consumed = try buffer.withUnsafeBytes { raw throws(SegmentStoreError) -> Int in
                var at = 0
                while at < filled {
                    // memchr over the bytes not yet split: the raw buffer outlives the call.
                    guard let newline = memchr(raw.baseAddress! + at, 0x0A, filled - at) else { break }
                    let end = raw.baseAddress!.distance(to: UnsafeRawPointer(newline))
                    if end > at { try writer.add(UnsafeRawBufferPointer(rebasing: raw[at..<end])) }
                    at = end + 1
                }
                if read == 0, at < filled { try writer.add(UnsafeRawBufferPointer(rebasing: raw[at..<filled])); at = filled }
                return at
            }
            kept = filled - consumed
            if kept > 0 { buffer.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + consumed, byteCount: kept) } }
            if read == 0 { break }
        }
        try writer.close()
        print("segment-write: \(writer.counts.stored) events, \(writer.counts.commits) commits, \(ImportBenchmark.format3(monotonicSeconds() - start)) s, peak RSS \(peakRSSBytes() >> 20) MiB")
    }
}
