import Foundation
import NavLogTestSupport
import Testing

/// `navlog-bench SUITE --help` explains that suite and starts nothing: a
/// benchmark run takes minutes and writes corpora, so asking how to call it
/// must not begin one.
@Suite("navlog-bench help")
struct BenchHelpTests {
    static let bench = productsDirectory().appendingPathComponent("navlog-bench").path

    @Test(arguments: ["--help", "-h"])
    func aSuitesHelpPrintsItsOptionsAndRunsNothing(flag: String) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-help-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let r = run(Self.bench, ["analytics", "--corpora", work, "--work", work, flag])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("usage: navlog-bench"), "\(r.stdout.prefix(200))")
        #expect(r.stdout.contains("--direct"), "the analytics suite's own options are listed")
        #expect(!r.stdout.contains("machine:"), "a run began")
        #expect(!FileManager.default.fileExists(atPath: work), "the suite made its directories")
    }
}
