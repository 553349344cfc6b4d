import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// A segment store written through the library from `lines` (canonical, with
/// seq and session), with small targets so that sessions run across blocks
/// and commits; by default without a screen projection (read from the
/// events until `navlog reindex`).
func makeSegmentStore(_ path: String, lines: [Substring],
                      options: SegmentWriterOptions = SegmentWriterOptions(blockTarget: 2 << 10, checkpointInterval: 4,
                                                                           commitTarget: 12 << 10, segmentTarget: 64 << 10,
                                                                           keepsProjection: false)) throws {
    let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: options)
    for line in lines { _ = try writer.add(Array(line.utf8)) }
    try writer.close()
}

/// Generated sessions as NDJSON and as a segment store of the same lines.
func generatedInputs(sessions: Int = 40, seed: Int = 3) throws -> (dir: TemporaryDirectory, ndjson: String, store: String) {
    let dir = try TemporaryDirectory()
    let ndjson = dir.file("sessions.ndjson")
    let g = navlog("generate", "--sessions", "\(sessions)", "--seed", "\(seed)", "--events-per-session", "4-30",
                   "--interleave", "--app-versions", "1.0,2.0", "-o", ndjson)
    #expect(g.status == 0, "\(g.stderr)")
    let text = try String(contentsOfFile: ndjson, encoding: .utf8)
    let store = dir.file("store")
    try makeSegmentStore(store, lines: text.split(separator: "\n"))
    return (dir, ndjson, store)
}

/// funnel, paths and export over a segment store give what they give over
/// the same sessions as NDJSON.
@Suite struct SegmentStoreReadTests {
    @Test("funnel and paths over a segment store print what they print over its NDJSON")
    func funnelAndPaths() throws {
        let (dir, ndjson, store) = try generatedInputs()
        _ = dir
        #expect(try SegmentReader(store: SegmentStore.open(at: store)).commitCount > 3)
        for args in [["funnel", "--step", "*", "--step", "*", "--format", "csv"],
                     ["funnel", "--step", "*", "--step", "mark:*", "--by", "app.version", "--format", "json"],
                     ["paths", "--format", "csv"], ["paths", "--json", "--depth", "3"]] {
            let a = navlog([args[0], ndjson] + args.dropFirst())
            let b = navlog([args[0], store] + args.dropFirst())
            #expect(a.status == 0 && b.status == 0, "\(args) \(a.stderr) \(b.stderr)")
            #expect(a.stdout.count > 40 && a.stdout == b.stdout, "\(args)")
        }
    }

    @Test("export screens and events over a segment store: the same rows, each session's together in seq order")
    func exportRows() throws {
        let (dir, ndjson, store) = try generatedInputs()
        _ = dir
        for args in [["export", "screens"], ["export", "screens", "--with-marks"], ["export", "events"],
                     ["export", "events", "--format", "ndjson"]] {
            let a = navlog(args + [ndjson]), b = navlog(args + [store])
            #expect(a.status == 0 && b.status == 0, "\(args) \(a.stderr) \(b.stderr)")
            let rowsA = a.stdout.split(separator: "\n"), rowsB = b.stdout.split(separator: "\n")
            #expect(rowsA.count > 100 && rowsA.sorted() == rowsB.sorted(), "\(args)")
            if args.count == 2 && args[1] == "events" {
                #expect(rowsA.first == rowsB.first)     // the header
                // Each session's rows are contiguous and in the NDJSON's order.
                let sessions = rowsB.dropFirst().map { $0.prefix { $0 != "," } }
                var seen: [Substring] = []
                for s in sessions where s != seen.last { seen.append(s) }
                #expect(seen.count == Set(seen).count)
                for id in seen {
                    #expect(rowsA.filter { $0.hasPrefix(id + ",") } == rowsB.filter { $0.hasPrefix(id + ",") })
                }
            }
        }
    }

    @Test("A store and more inputs at once; a version-1 store still reads")
    func mixedInputs() throws {
        let (dir, ndjson, store) = try generatedInputs(sessions: 12)
        let other = dir.file("other.ndjson")
        #expect(navlog("generate", "--sessions", "5", "--seed", "9", "-o", other).status == 0)
        let a = navlog("funnel", ndjson, other, "--step", "*", "--step", "*", "--format", "csv")
        let b = navlog("funnel", store, other, "--step", "*", "--step", "*", "--format", "csv")
        #expect(a.status == 0 && a.stdout == b.stdout, "\(b.stderr)")
    }

    @Test("An empty segment store has no sessions")
    func empty() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("empty")
        try makeSegmentStore(store, lines: [])
        let r = navlog("export", "events", store)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 1)
    }

    @Test("Damage in a segment store's data is exit 1 with the segment and byte")
    func damaged() throws {
        let (dir, _, store) = try generatedInputs(sessions: 10)
        _ = dir
        let segment = URL(fileURLWithPath: store + "/00000001.nls")
        var bytes = try Data(contentsOf: segment)
        let frame = try StoreVerifyTests.frame(bytes, tag: nil)
        bytes[frame + 24] ^= 0x10
        try bytes.write(to: segment)
        // (A torn tail is not damage to a reader: StoreVerifyTests.tornTail.)
        for args in [["export", "events", store], ["funnel", store, "--step", "*"]] {
            let r = navlog(args)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("\(store)/00000001.nls: byte \(frame): data frame: ") && r.stderr.split(separator: "\n").count == 1,
                    "\(args): \(r.stderr)")
        }
    }
}
