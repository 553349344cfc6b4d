/// One benchmark suite: a name to call it by, a line of help, and the code.
struct BenchmarkSuite: Sendable {
    /// What `navlog-bench <name>` calls it.
    let name: String
    /// One line for the usage text.
    let summary: String
    /// The options it understands beyond the common ones, for the usage text.
    let options: [String]
    /// Runs the suite, printing its tables.
    let run: @Sendable (BenchmarkOptions) throws -> Void

    init(name: String, summary: String, options: [String] = [], run: @escaping @Sendable (BenchmarkOptions) throws -> Void) {
        self.name = name
        self.summary = summary
        self.options = options
        self.run = run
    }
}

/// A benchmark that could not run (a missing tool, a failed command).
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
