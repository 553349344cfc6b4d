import Foundation
import NavLogCore

/// Issue 2: the canonical-line parser and the fold, beside Foundation's
/// `JSONSerialization` on the same lines.
///
/// On `--events N` (default 1M) generated events of one session: parse every
/// line to an ``Event``; fold pre-parsed events into a ``NavigationState``;
/// parse and fold together (what reading a log does); and
/// `JSONSerialization.jsonObject(with:)` of every line (no model built, no
/// validation: a floor for any Foundation-based reader). All on one thread.
enum ParseFoldBenchmark {
    static let suite = BenchmarkSuite(
        name: "parse-fold",
        summary: "canonical-line parse and fold vs Foundation JSONSerialization",
        options: ["--events N  generated events (default 1M)",
                  "--only navlog  skip the Foundation peer (for profiling)"],
        run: run
    )

    static func run(_ options: BenchmarkOptions) throws {
        let count = try options.int("events", default: 1_000_000)
        let runs = options.runs
        let corpus = SampleCorpus(events: count, seed: options.seed)
        let bytes = corpus.bytes.count
        print("\(corpus.eventCount) events of one generated session, \(megabytes(bytes)) of canonical NDJSON (\(bytes / max(1, corpus.eventCount)) B/event)\n")

        // Parse.
        var events: [Event] = []
        events.reserveCapacity(corpus.eventCount)
        var parser = EventLineParser()
        try corpus.forEachLine { events.append(try parser.parse($0)) }
        print("each run times every piece once, round-robin (warm-up round first)\n")
        let session = events.first?.session ?? ""
        let skipPeer = options.string("only") == "navlog"
        let timings = try measureInterleaved(runs: runs, [
            {   // parse
                var parser = EventLineParser()
                var sum = 0
                try corpus.forEachLine { sum &+= try parser.parse($0).seq }
                blackHole(sum)
            },
            {   // fold pre-parsed events
                var projector = NavigationProjector(session: session)
                for event in events { _ = projector.apply(event) }
                blackHole(projector.state)
            },
            {   // parse + fold
                var parser = EventLineParser()
                var projector = NavigationProjector(session: session)
                try corpus.forEachLine { _ = projector.apply(try parser.parse($0)) }
                blackHole(projector.state)
            },
            {   // Foundation: JSONSerialization of the same lines
                if skipPeer { return }
                var objects = 0
                try corpus.forEachLine { line in
                    let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: line.baseAddress!), count: line.count,
                                    deallocator: .none)
                    let object = try JSONSerialization.jsonObject(with: data)
                    if object is [String: Any] { objects += 1 }
                }
                guard objects == corpus.eventCount else { throw BenchmarkFailure("Foundation parsed \(objects) objects") }
            },
        ])
        let (parse, fold, both, foundation) = (timings[0], timings[1], timings[2], timings[3])

        let n = Double(corpus.eventCount)
        var table = Table("work (1 thread)", "median", "events/s", "MB/s", "vs Foundation parse")
        func row(_ name: String, _ t: Timings) {
            table.add(name, milliseconds(t.median), rate(n / t.median), megabytesPerSecond(bytes, t.median),
                      ratio(foundation.median, t.median))
        }
        row("navlog parse (EventLineParser)", parse)
        row("navlog fold (NavigationProjector.apply)", fold)
        row("navlog parse + fold", both)
        row("Foundation JSONSerialization parse", foundation)
        table.print()
        let target = n / both.median >= 3e6 && foundation.median / both.median >= 5
        print("target (parse+fold ≥ 3M events/s and ≥ 5× Foundation parse): \(target ? "met" : "MISSED")")
        print("(fold MB/s counts the canonical bytes of the events folded; ratios are Foundation's median time / ours)")
        blackHole(events.count)
    }
}
