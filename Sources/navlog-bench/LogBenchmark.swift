/// Issue 3 (placeholder until the next commit).
enum LogBenchmark {
    static let suite = BenchmarkSuite(name: "log", summary: "the .navlog log vs the lz4 tool (issue 3)") { _ in
        throw BenchmarkFailure("not yet")
    }
}
