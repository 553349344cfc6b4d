import Foundation
import Testing
import NavLogTestSupport

/// funnel, paths and export over NDJSON whose sessions come one after
/// another, or interleaved, from a file or from standard input, answer as
/// over a segment store of the same sessions (each session is finished at
/// its last line, never before).
@Suite struct NDJSONSessionOrderTests {
    @Test func oneAfterAnotherInterleavedAndStoreAgree() throws {
        let dir = try TemporaryDirectory()
        let sequential = dir.file("sequential.ndjson"), interleaved = dir.file("interleaved.ndjson"), store = dir.file("store")
        let versions = "--app-versions=1.0,2.0"
        #expect(navlog("generate", "--sessions", "60", "--events-per-session", "2-12", versions, "-o", sequential).status == 0)
        // The same lines interleaved: sessions in groups of 7, a line of each in turn.
        let lines = try String(contentsOfFile: sequential, encoding: .utf8).split(separator: "\n")
        let bySession = Dictionary(grouping: lines) { line in
            let after = line[line.firstRange(of: "\"session\":\"")!.upperBound...]
            return after[..<after.firstIndex(of: "\"")!]
        }.sorted { $0.key < $1.key }.map(\.value)
        #expect(bySession.count == 60)
        var mixed: [Substring] = []
        for start in stride(from: 0, to: bySession.count, by: 7) {
            let group = bySession[start..<min(start + 7, bySession.count)]
            for i in 0..<(group.map(\.count).max() ?? 0) { mixed += group.compactMap { i < $0.count ? $0[i] : nil } }
        }
        #expect(mixed.count == lines.count)
        try (mixed.joined(separator: "\n") + "\n").write(toFile: interleaved, atomically: false, encoding: .utf8)
        let ingest = navlog("ingest", sequential, "--store", store)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let piped = try String(contentsOfFile: interleaved, encoding: .utf8)
        #expect(piped != (try String(contentsOfFile: sequential, encoding: .utf8)))

        let funnel = ["funnel", "--step", "tab:*", "--step", "*", "--step", "mark:*", "--within", "5m", "--by", "app.version", "--format", "csv"]
        let paths = ["paths", "--format", "csv"]
        for command in [funnel, paths] {
            let expected = navlog([command[0], store] + command.dropFirst())
            #expect(expected.status == 0, "\(expected.stderr)")
            #expect(expected.stdout.split(separator: "\n").count > 2)
            for input in [sequential, interleaved] {
                let r = navlog([command[0], input] + command.dropFirst())
                #expect(r.stdout == expected.stdout, "\(command[0]) \(input)")
            }
            if command == funnel {
                let stdin = navlog([command[0], "-"] + command.dropFirst(), stdin: piped)
                #expect(stdin.stdout == expected.stdout, "\(command[0]) -: \(stdin.stderr)")
            }
        }
        // Exports: the same rows (in input order, so compared sorted).
        for kind in ["screens", "events"] {
            let expected = navlog("export", kind, store)
            #expect(expected.status == 0, "\(expected.stderr)")
            for input in [sequential, interleaved] {
                let r = navlog("export", kind, input)
                #expect(r.stdout.split(separator: "\n").sorted() == expected.stdout.split(separator: "\n").sorted(), "\(kind) \(input)")
            }
        }
    }
}
