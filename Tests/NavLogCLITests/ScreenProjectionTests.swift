import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// `navlog reindex` and the screen projection (schemas/screen-projection.md):
/// funnel, paths and export screens answer the same with and without it,
/// with it damaged, and `verify` reports the damage that `reindex` repairs.
@Suite struct ScreenProjectionTests {
    /// The questions asked of a store, each with its arguments after the store.
    static let questions: [[String]] = [
        ["funnel", "STORE", "--step", "*", "--step", "Recipe/*", "--step", "mark:*", "--format", "csv"],
        ["funnel", "STORE", "--step", "url:*", "--step", "*", "--within", "2m", "--by", "app.version", "--format", "json"],
        ["funnel", "STORE", "--step", "*", "--from", "2026-01-01T00:00:00Z", "--format", "csv"],
        ["paths", "STORE", "--format", "csv"],
        ["paths", "STORE", "--json", "--depth", "3"],
        ["export", "screens", "STORE"],
        ["export", "screens", "STORE", "--with-marks"],
        ["export", "screens", "STORE", "--with-marks", "--format", "ndjson"],
    ]

    /// A few of them, for the damage cases.
    static let few = [questions[1], questions[4], questions[6]]

    /// Every question's output over `store`.
    static func answers(_ store: String, _ questions: [[String]] = questions) -> [String] {
        questions.map { args in
            let r = navlog(args.map { $0 == "STORE" ? store : $0 })
            #expect(r.status == 0, "\(args) \(r.stderr)")
            return r.stdout
        }
    }

    static func projectionFiles(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".views") }.sorted()
    }

    @Test("reindex writes a projection per segment; the answers do not change; a second reindex keeps them")
    func sameAnswers() throws {
        let (dir, _, store) = try generatedInputs()
        _ = dir
        let before = Self.answers(store)
        let r = navlog("reindex", store)
        #expect(r.status == 0 && r.stdout.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stdout.contains("written, 0 kept") && r.stdout.contains("40 sessions"), "\(r.stdout)")
        let segments = try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".nls") }
        let files = try Self.projectionFiles(store)
        #expect(segments.count >= 2 && files.count == segments.count)
        #expect(Self.answers(store) == before)
        #expect(before[0].count > 100 && before[6].split(separator: "\n").count > 300)
        let again = navlog("reindex", store)
        #expect(again.status == 0 && again.stdout.contains("0 projection files written, \(segments.count) kept"), "\(again.stdout)")
        let verify = navlog("verify", store)
        #expect(verify.status == 0, "\(verify.stdout)")
    }

    @Test("A bit flip, a cut or a deleted file: the same answers, verify reports it, reindex repairs it",
          arguments: ["flip", "cut", "delete"])
    func damage(_ kind: String) throws {
        let (dir, _, store) = try generatedInputs()
        _ = dir
        #expect(navlog("reindex", store).status == 0)
        let good = Self.answers(store, Self.few)
        let files = try Self.projectionFiles(store)
        let path = store + "/" + files[0]
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch kind {
        case "flip": bytes[bytes.count / 2] ^= 0x10
        case "cut": bytes.removeLast(bytes.count / 3)
        default: try FileManager.default.removeItem(atPath: path)
        }
        if kind != "delete" { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        #expect(Self.answers(store, Self.few) == good)
        let verify = navlog("verify", store, "--json")
        #expect(verify.status == 1 && verify.stdout.contains("\"kind\":\"projection\"") && verify.stdout.contains(files[0]),
                "\(verify.stdout)")
        let text = navlog("verify", store)
        #expect(text.stdout.contains("\(files[0]): byte ") && text.stdout.contains("screen projection: "), "\(text.stdout)")
        let repair = navlog("reindex", store)
        #expect(repair.status == 0 && repair.stdout.contains("1 projection file written"), "\(repair.stdout)")
        #expect(navlog("verify", store).status == 0)
        #expect(Self.answers(store, Self.few) == good)
    }

    @Test("Every ingest keeps the projection, byte for byte what reindex builds; one left behind is noted and caught up")
    func keptByIngest() throws {
        let dir = try TemporaryDirectory()
        let ndjson = dir.file("all.ndjson")
        // Enough sessions that a commit of them is followed on both cores.
        #expect(navlog("generate", "--sessions", "900", "--seed", "4", "--events-per-session", "2-12", "--interleave", "-o", ndjson).status == 0)
        let lines = try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n")
        let store = dir.file("store")
        let parts = [lines[..<(lines.count / 3)], lines[(lines.count / 3)..<(lines.count * 2 / 3)], lines[(lines.count * 2 / 3)...]]
        func ingest(_ k: Int) -> (status: Int32, stdout: String, stderr: String) {
            let input = dir.file("part-\(k).ndjson")
            try? (parts[k].joined(separator: "\n") + "\n").write(toFile: input, atomically: false, encoding: .utf8)
            let r = navlog("ingest", input, "--store", store, "--json")
            return (r.status, r.stdout, r.stderr)
        }
        // A new store has its projection from its first commit, and each ingest keeps it, sessions under way
        // continuing across ingests (their screen state read back).
        for k in 0...2 {
            let r = ingest(k)
            #expect(r.status == 0 && r.stdout.contains("\"projectionBehind\":null") && r.stderr.isEmpty, "\(r.stdout) \(r.stderr)")
        }
        let expected = navlog("funnel", ndjson, "--step", "*", "--step", "Recipe/*", "--format", "csv").stdout
        #expect(navlog("funnel", store, "--step", "*", "--step", "Recipe/*", "--format", "csv").stdout == expected)
        #expect(navlog("verify", store).status == 0)
        let path = store + "/00000001.views"
        let kept = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        #expect(navlog("reindex", store).stdout.contains("1 projection file written"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == kept, "the writer's blocks are reindex's")

        // A projection that does not cover the commits (here: emptied) cannot be kept: ingest says so,
        // and the answers come from the events until reindex.
        try Data().write(to: URL(fileURLWithPath: path))
        let more = dir.file("more.ndjson")
        let g = navlog("generate", "--sessions", "6", "--seed", "8")
        try g.stdout.replacingOccurrences(of: "\"session\":\"s-", with: "\"session\":\"n-").write(toFile: more, atomically: false, encoding: .utf8)
        let behind = navlog("ingest", more, "--store", store)
        #expect(behind.status == 0 && behind.stderr.contains("note: the screen projection is behind") && behind.stderr.contains("navlog reindex"),
                "\(behind.stderr)")
        let both = navlog("funnel", ndjson, more, "--step", "*", "--step", "*", "--format", "csv")
        #expect(both.status == 0 && navlog("funnel", store, "--step", "*", "--step", "*", "--format", "csv").stdout == both.stdout)
        #expect(navlog("verify", store).status == 0, "behind is not damage")
        #expect(navlog("reindex", store).stdout.contains("1 projection file written"))
        #expect(navlog("funnel", store, "--step", "*", "--step", "*", "--format", "csv").stdout == both.stdout)
    }

    @Test("reindex removes stray projection files and refuses what is not a segment store")
    func strays() throws {
        let (dir, _, store) = try generatedInputs(sessions: 6)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: store + "/00000007.views.tmp"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: store + "/00000099.views"))
        #expect(navlog("verify", store).stdout.contains("00000007.views.tmp"))
        let r = navlog("reindex", store)
        #expect(r.status == 0 && r.stdout.contains("2 stray files removed"), "\(r.stdout)")
        #expect(navlog("verify", store).status == 0)
        let plain = dir.file("plain")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        let refused = navlog("reindex", plain)
        #expect(refused.status != 0 && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
}
