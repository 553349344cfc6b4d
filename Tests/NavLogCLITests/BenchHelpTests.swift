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

    /// A mistyped option is refused with the suite's usage, before anything
    /// runs (`--run 3` would otherwise time 5 rounds and say nothing).
    @Test func anOptionNoChosenSuiteHasIsRefused() {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-typo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let r = run(Self.bench, ["analytics", "--corpora", work, "--work", work, "--run", "3"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("navlog-bench: analytics has no option --run\n"), "\(r.stderr.prefix(200))")
        #expect(r.stderr.contains("--no-projection"), "the suite's usage follows")
        #expect(r.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: work), "the suite made its directories")
    }
}
