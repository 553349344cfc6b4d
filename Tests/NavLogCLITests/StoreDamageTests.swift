import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// Torn tail or damage, decided by the durable point (schemas/segment-store.md
/// §9.1), through the real binary: readers say "damaged" and exit 1, writers
/// refuse and move nothing, a torn tail after the durable point is ignored by
/// readers and cut aside by the next writer with a word, and `repair` sets
/// damage aside and says where.
@Suite struct StoreDamageTests {
    /// A store of several segments (small targets) of generated sessions; its NDJSON; one session id.
    static func store(_ dir: TemporaryDirectory) throws -> (store: String, ndjson: String, ids: [String]) {
        let ndjson = dir.file("in.ndjson")
        #expect(navlog("generate", "--sessions", "12", "--seed", "7", "--events-per-session", "4-30", "--interleave", "-o", ndjson).status == 0)
        let lines = try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n")
        let store = dir.file("store")
        try makeSegmentStore(store, lines: lines, options: SegmentWriterOptions(
            blockTarget: 1 << 10, checkpointInterval: 4, commitTarget: 3 << 10, segmentTarget: 5 << 10))
        let ids = lines.compactMap { line -> String? in
            guard let range = line.range(of: #""session":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        var seen = Set<String>()
        return (store, ndjson, ids.filter { seen.insert($0).inserted })
    }

    /// The offset of the first `NLCI` frame at or after `start`.
    static func commitIndexFrame(in bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 12 <= bytes.count {
            let magic = bytes[i] == 0x5E && bytes[i + 1] == 0x2A && bytes[i + 2] == 0x4D && bytes[i + 3] == 0x18
            if magic && bytes[i + 8] == 0x4E && bytes[i + 10] == 0x43 && bytes[i + 11] == 0x49 { return i }
            i += 1
        }
        return nil
    }

    static func segments(_ store: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []).filter { $0.hasSuffix(".nls") }.sorted()
    }

    static func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }
    static func write(_ path: String, _ bytes: [UInt8]) { _ = FileManager.default.createFile(atPath: path, contents: Data(bytes)) }

    /// Every reading command on `store` says it is damaged, in one line, and exits 1.
    static func expectDamageSaid(_ store: String, sessions ids: [String], _ comment: String) {
        let a = ids.first!, b = ids.last!
        for args in [["state", store, "--session", b], ["cat", store, "--session", a], ["info", store, "--session", a],
                     ["replay", store, "--session", b], ["blame", store, "--session", b], ["sessions", store],
                     ["funnel", store, "--step", "*"], ["paths", store], ["export", "events", store],
                     ["diff", store, store, "--session-a", a, "--session-b", b], ["bisect", store, store, "--session-a", a, "--session-b", b]] {
            let result = navlog(args)
            #expect(result.status == 1, "\(comment): \(args[0]) exit \(result.status): \(result.stdout.prefix(200)) \(result.stderr)")
            #expect(result.stderr.contains("is damaged") && result.stderr.split(separator: "\n").count == 1,
                    "\(comment): \(args[0]): \(result.stderr)")
            #expect(!result.stderr.contains("no session"), "\(comment): \(args[0])")
        }
        let verify = navlog("verify", store)
        #expect(verify.status == 1 && !verify.stdout.contains("torn tail only"), "\(comment): verify: \(verify.stdout)")
    }

    @Test("A segment cut short anywhere before the durable point, at a commit boundary too, is damage to every reader")
    func truncationIsDamage() throws {
        let dir = try TemporaryDirectory()
        let (store, _, ids) = try Self.store(dir)
        let segments = Self.segments(store)
        #expect(segments.count >= 3)
        let path = store + "/" + segments[0]
        let original = Self.bytes(path)
        let ends = StoreFaultTests.Fixture.commitEnds(original)
        for cut in [ends[0], (ends[0] + ends[1]) / 2] {
            Self.write(path, Array(original.prefix(cut)))
            Self.expectDamageSaid(store, sessions: ids, "cut at \(cut)")
        }
        // The last (unsealed) segment, cut at its last commit but one.
        Self.write(path, original)
        let lastPath = store + "/" + segments.last!
        let last = Self.bytes(lastPath)
        let lastEnds = StoreFaultTests.Fixture.commitEnds(last)
        Self.write(lastPath, Array(last.prefix(lastEnds.count > 1 ? lastEnds[lastEnds.count - 2] : 100)))
        Self.expectDamageSaid(store, sessions: ids, "last segment cut at a commit boundary")
    }

    @Test("One flipped bit in a commit index's length field, a deleted segment, a deleted manifest: damage, not an answer from a prefix")
    func flipsAndDeletions() throws {
        let dir = try TemporaryDirectory()
        let (store, _, ids) = try Self.store(dir)
        let segments = Self.segments(store)
        let lastPath = store + "/" + segments.last!
        let last = Self.bytes(lastPath)
        let ends = StoreFaultTests.Fixture.commitEnds(last)
        // The `NLCI` frame of the last commit: its size field is 4 bytes after its magic.
        let magic = ends.count > 1 ? ends[ends.count - 2] : 47
        var flipped = last
        let sizeAt = try #require(Self.commitIndexFrame(in: last, from: magic))
        flipped[sizeAt + 5] ^= 0x01
        Self.write(lastPath, flipped)
        Self.expectDamageSaid(store, sessions: ids, "commit index size flipped")
        Self.write(lastPath, last)

        try FileManager.default.moveItem(atPath: store + "/" + segments[1], toPath: dir.file("aside.nls"))
        Self.expectDamageSaid(store, sessions: ids, "segment 2 deleted")
        try FileManager.default.moveItem(atPath: dir.file("aside.nls"), toPath: store + "/" + segments[1])

        try FileManager.default.removeItem(atPath: store + "/navlog-store")
        Self.expectDamageSaid(store, sessions: ids, "manifest deleted")
        let ingest = navlog("ingest", dir.file("in.ndjson"), "--store", store)
        #expect(ingest.status == 2 && ingest.stderr.contains("navlog repair"), "\(ingest.stderr)")
    }

    @Test("A writer refuses a damaged store, exit 2 naming navlog repair, and moves no byte")
    func writerRefuses() throws {
        let dir = try TemporaryDirectory()
        let (store, ndjson, _) = try Self.store(dir)
        let segments = Self.segments(store)
        var header = Self.bytes(store + "/" + segments.last!)
        header[20] ^= 0x04        // a bit of the segment header (NLSH)
        Self.write(store + "/" + segments.last!, header)
        let before = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        let sizes = segments.map { Self.bytes(store + "/" + $0) }
        for args in [["ingest", ndjson, "--store", store], ["reindex", store]] {
            let result = navlog(args)
            #expect(result.status == 2, "\(args[0]): \(result.stderr)")
            #expect(result.stderr.contains("is damaged") && result.stderr.contains("navlog repair \(store)")
                    && result.stderr.split(separator: "\n").count == 1, "\(args[0]): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).sorted() == before)
        #expect(segments.map { Self.bytes(store + "/" + $0) } == sizes)
    }

    @Test("Bytes after the durable point are a torn tail: readers answer from the durable commits, the next writer cuts them aside and says so")
    func tornTailAfterTheDurablePoint() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let first = try dir.file("a.ndjson", (1...6).map { #"{"seq":\#($0),"session":"a","t":"2026-11-20T10:00:0\#($0)Z","type":"mark","label":"m\#($0)"}"# }
            .joined(separator: "\n") + "\n")
        let second = try dir.file("b.ndjson", (1...6).map { #"{"seq":\#($0),"session":"b","t":"2026-11-20T10:00:0\#($0)Z","type":"mark","label":"m\#($0)"}"# }
            .joined(separator: "\n") + "\n")
        #expect(navlog("ingest", first, "--store", store).status == 0)
        let point = Self.bytes(store + "/COMMITTED")
        let durableEnd = Self.bytes(store + "/00000001.nls").count
        let answer = navlog("sessions", store).stdout
        #expect(navlog("ingest", second, "--store", store).status == 0)
        // A crash while the second commit was being written: its bytes are cut short and the point never moved.
        let segment = Self.bytes(store + "/00000001.nls")
        Self.write(store + "/00000001.nls", Array(segment.prefix(durableEnd + (segment.count - durableEnd) / 2)))
        Self.write(store + "/COMMITTED", point)
        let sessions = navlog("sessions", store)
        #expect(sessions.status == 0 && sessions.stdout == answer, "\(sessions.stderr)")
        let verify = navlog("verify", store)
        #expect(verify.stdout.contains("torn tail"), "\(verify.stdout)")
        let resumed = navlog("ingest", second, "--store", store)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("torn tail") && resumed.stderr.contains("kept in \(store)/00000001.nls.torn-\(durableEnd)"), "\(resumed.stderr)")
        #expect(Self.bytes(store + "/00000001.nls.torn-\(durableEnd)") == Array(segment[durableEnd..<(durableEnd + (segment.count - durableEnd) / 2)]))
        #expect(navlog("verify", store).status == 0)
        #expect(navlog("cat", store, "--session", "b").stdout.split(separator: "\n").count == 6)
    }

    @Test("repair STORE sets damaged commits aside, says what it moved where, and the store verifies")
    func repairSetsDamageAside() throws {
        let dir = try TemporaryDirectory()
        let (store, ndjson, _) = try Self.store(dir)
        let segments = Self.segments(store)
        let path = store + "/" + segments[1]
        let original = Self.bytes(path)
        let ends = StoreFaultTests.Fixture.commitEnds(original)
        let cut = (ends[0] + ends[1]) / 2
        Self.write(path, Array(original.prefix(cut)))
        let repair = navlog("repair", store)
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        let side = "\(path).damaged-\(ends[0])"
        #expect(repair.stdout.contains("cut \(cut - ends[0]) bytes") && repair.stdout.contains("kept in \(side)"), "\(repair.stdout)")
        #expect(Self.bytes(side) == Array(original[ends[0]..<cut]))
        for later in segments.dropFirst(2) {
            #expect(repair.stdout.contains("\(store)/\(later): moved whole"), "\(repair.stdout)")
            #expect(FileManager.default.fileExists(atPath: "\(store)/\(later).damaged-0"))
        }
        #expect(repair.stdout.contains("set aside") && repair.stdout.contains("verify: ok"), "\(repair.stdout)")
        #expect(navlog("verify", store).status == 0)
        #expect(navlog("sessions", store).status == 0)
        // The store takes writes again, and the events set aside come back from their input.
        #expect(navlog("ingest", ndjson, "--store", store).status == 0)
        #expect(navlog("verify", store).status == 0)
        #expect(navlog("export", "events", store, "--format", "ndjson").stdout.split(separator: "\n").count
                == (try String(contentsOfFile: ndjson, encoding: .utf8)).split(separator: "\n").count)
        #expect(navlog("repair", store).stdout.contains("intact, nothing to do"))
    }

    @Test("repair STORE writes a lost manifest or durable point again")
    func repairStoreFiles() throws {
        let dir = try TemporaryDirectory()
        let (store, _, _) = try Self.store(dir)
        let answer = navlog("sessions", store).stdout
        for file in ["navlog-store", "COMMITTED"] {
            try FileManager.default.removeItem(atPath: store + "/" + file)
            let repair = navlog("repair", store)
            #expect(repair.status == 0 && repair.stdout.contains("\(store)/\(file)"), "\(file): \(repair.stdout) \(repair.stderr)")
            #expect(navlog("verify", store).status == 0, "\(file)")
            #expect(navlog("sessions", store).stdout == answer, "\(file)")
        }
    }

    @Test("A store of format 2.0 (no durable point) is read, and its next writer gives it one")
    func formatTwoZero() throws {
        let dir = try TemporaryDirectory()
        let (store, ndjson, _) = try Self.store(dir)
        let answer = navlog("sessions", store).stdout
        try FileManager.default.removeItem(atPath: store + "/COMMITTED")
        Self.write(store + "/navlog-store", Array("navlog-store 2.0\n".utf8))
        #expect(navlog("sessions", store).stdout == answer)
        #expect(navlog("verify", store).status == 0)
        #expect(navlog("ingest", ndjson, "--store", store).status == 0)
        #expect(String(decoding: Self.bytes(store + "/navlog-store"), as: UTF8.self) == "navlog-store 2.1\n")
        #expect(FileManager.default.fileExists(atPath: store + "/COMMITTED"))
        #expect(navlog("verify", store).status == 0)
    }
}
