import Foundation
import Testing
import NavLogTestSupport

/// The funnel past one machine: `navlog funnel` on a store, and
/// tools/funnel.sql in DuckDB (`tools/duckdb-funnel`) and in Spark SQL
/// (`tools/spark-funnel`, pyspark in local mode) over the store's
/// partitioned export, give byte-identical CSVs, with `--within` and `--by`.
/// Not skipped without pyspark or Java: it fails, naming `tools/setup --test`.
@Suite struct SparkFunnelTests {
    @Test func navlogDuckDBAndSparkGiveTheSameFunnelCSV() throws {
        let dir = try TemporaryDirectory()
        let store = try PartitionedExportTests.store(dir)
        let exported = navlog("export", "screens", store, "--with-marks", "--output", dir.file("parts"), "--partition-by", "day")
        try #require(exported.status == 0, "\(exported.stderr)")
        #expect(PartitionedExportTests.parts(dir.file("parts")).count == 2)
        let funnel = ["--step", "tab:*", "--step", "Recipe/*", "--step", "mark:add-to-cart", "--within", "2m", "--by", "app.version"]
        let ours = navlog(["funnel", store, "--format", "csv"] + funnel)
        #expect(ours.status == 0, "\(ours.stderr)")
        // Not a vacuous agreement: two segments, each reaching every step.
        let rows = ours.stdout.split(separator: "\n")
        #expect(rows.count == 7, "\(ours.stdout)")
        for row in rows.dropFirst() { #expect(!row.contains(",0,"), "\(row)") }

        let duckdb = run(repositoryRoot.appendingPathComponent("tools/duckdb-funnel").path, [dir.file("parts")] + funnel)
        #expect(duckdb.status == 0, "tools/duckdb-funnel failed (tools/setup --test installs duckdb): \(duckdb.stderr)")
        #expect(duckdb.stdout == ours.stdout)

        let spark = run(repositoryRoot.appendingPathComponent("tools/spark-funnel").path, [dir.file("parts")] + funnel)
        #expect(spark.status == 0, "tools/spark-funnel failed (tools/setup --test installs pyspark and says which Java 17 to install): \(spark.stderr.suffix(2000))")
        #expect(spark.stdout == ours.stdout)
    }
}
