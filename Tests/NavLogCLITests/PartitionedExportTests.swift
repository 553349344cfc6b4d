import Foundation
import Testing
import NavLogTestSupport

/// `navlog export screens|events --output DIR --partition-by day`: gzip part
/// files in Hive-style day partitions, read back as they are by gzip and
/// DuckDB (`tools/setup --test` installs its Python module).
@Suite struct PartitionedExportTests {
    /// A small store whose sessions cross midnight (UTC), in two app versions.
    static func store(_ dir: TemporaryDirectory, sessions: Int = 120) throws -> String {
        let generated = navlog("generate", "--sessions", "\(sessions)", "--seed", "5", "--interleave",
                               "--start", "2026-11-20T23:45:00Z", "--app-versions", "3.0.0,3.1.0", "--output", dir.file("s.ndjson"))
        try #require(generated.status == 0, "\(generated.stderr)")
        let ingested = navlog("ingest", dir.file("s.ndjson"), "--store", dir.file("store"))
        try #require(ingested.status == 0, "\(ingested.stderr)")
        return dir.file("store")
    }

    /// The part files under `directory`, relative to it, sorted.
    static func parts(_ directory: String) -> [String] {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".gz") }.sorted()
    }

    @Test func partsAreGzipCSVWithTheirHeaderOneDirectoryPerUTCDay() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let r = navlog("export", "screens", store, "--with-marks", "--output", dir.file("parts"), "--partition-by", "day")
        #expect(r.status == 0, "\(r.stderr)")
        let parts = Self.parts(dir.file("parts"))
        #expect(parts == ["dt=2026-11-20/part-00000.csv.gz", "dt=2026-11-21/part-00000.csv.gz"])
        var rows: [Substring] = []
        for part in parts {
            let day = part.dropFirst(3).prefix(10)
            let unzipped = run("/usr/bin/env", ["gzip", "-dc", dir.file("parts/" + part)])
            #expect(unzipped.status == 0, "gzip -dc \(part): \(unzipped.stderr)")
            let lines = unzipped.stdout.split(separator: "\n")
            #expect(lines.first == "session,seq,t,scene,screen,kind")
            #expect(lines.count > 100)
            // Each row is in the partition of its own t's day.
            for line in lines.dropFirst() {
                #expect(line.split(separator: ",", omittingEmptySubsequences: false)[2].hasPrefix(day), "\(part): \(line)")
            }
            rows += lines.dropFirst()
        }
        let plain = navlog("export", "screens", store, "--with-marks").stdout.split(separator: "\n").dropFirst()
        #expect(rows.sorted() == plain.sorted())
    }

    @Test func duckDBReadsThePartitionsAsThePlainExport() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        for kind in ["screens", "events"] {
            let parts = navlog("export", kind, store, "--output", dir.file(kind), "--partition-by", "day")
            #expect(parts.status == 0, "\(parts.stderr)")
            let plain = navlog("export", kind, store)
            _ = try dir.file(kind + ".csv", plain.stdout)
        }
        // The same rows (as a multiset), and each row's dt is the UTC day of its t.
        let script = """
            import duckdb, sys
            con = duckdb.connect()
            for kind in ("screens", "events"):
                parts = con.execute(f"SELECT * EXCLUDE (dt) FROM read_csv('{kind}/**/*.csv.gz', hive_partitioning = true, all_varchar = true) ORDER BY ALL").fetchall()
                plain = con.execute(f"SELECT * FROM read_csv('{kind}.csv', all_varchar = true) ORDER BY ALL").fetchall()
                days = con.execute(f"SELECT count(*) FROM read_csv('{kind}/**/*.csv.gz', hive_partitioning = true, all_varchar = true) WHERE CAST(dt AS VARCHAR) <> substring(t, 1, 10)").fetchone()[0]
                days_seen = con.execute(f"SELECT count(DISTINCT dt) FROM read_csv('{kind}/**/*.csv.gz', hive_partitioning = true)").fetchone()[0]
                print(kind, len(parts), parts == plain, days, days_seen)
            """
        let checked = run("/usr/bin/env", ["sh", "-c", "cd \"$1\" && python3 -c \"$2\"", "sh", dir.path, script])
        #expect(checked.status == 0, "python3 with duckdb (tools/setup --test installs it): \(checked.stderr)")
        let lines = checked.stdout.split(separator: "\n").map { $0.split(separator: " ") }
        #expect(lines.count == 2, "\(checked.stdout)")
        for line in lines where line.count == 5 {
            #expect(Int(line[1]) ?? 0 > 500, "\(line)")
            #expect(line[2] == "True", "\(line[0]): the partitions hold other rows than the plain export")
            #expect(line[3] == "0", "\(line[0]): rows outside their t's day")
            #expect(line[4] == "2", "\(line[0]): the days seen")
        }
    }

    @Test func withoutPartitionsOnePartHoldsEveryRowAndNDJSONPartsAreNDJSON() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir, sessions: 20)
        #expect(navlog("export", "events", store, "--format", "ndjson", "--output", dir.file("all")).status == 0)
        #expect(Self.parts(dir.file("all")) == ["part-00000.ndjson.gz"])
        let unzipped = run("/usr/bin/env", ["gzip", "-dc", dir.file("all/part-00000.ndjson.gz")])
        #expect(unzipped.status == 0)
        #expect(unzipped.stdout == navlog("export", "events", store, "--format", "ndjson").stdout)
        #expect(!unzipped.stdout.isEmpty)
    }

    @Test func anOutputThatHoldsSomethingOrIsAnInputIsRefused() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir, sessions: 5)
        try FileManager.default.createDirectory(atPath: dir.file("full"), withIntermediateDirectories: false)
        _ = try dir.file("full/x", "x")
        for (output, says) in [(dir.file("full"), "not empty"), (store, "is the input")] {
            let r = navlog("export", "screens", store, "--output", output, "--partition-by", "day")
            #expect(r.status == 2)
            #expect(r.stderr.contains(says), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("full")) == ["x"])
        let alone = navlog("export", "screens", store, "--partition-by", "day")
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--output"))
        // An empty directory is taken.
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: false)
        #expect(navlog("export", "screens", store, "--output", dir.file("empty")).status == 0)
        #expect(Self.parts(dir.file("empty")) == ["part-00000.csv.gz"])
    }
}
