import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// `navlog verify STORE` on a segment store through the real binary:
/// intact, bits flipped in data, commit index and checkpoint bytes, a torn
/// tail, and a store it cannot read.
@Suite struct StoreVerifyTests {
    /// Where the first frame of a kind starts in a segment: a data frame
    /// (past the preamble) or a record with the tag `tag` (`NLCI`, `NLSC`).
    static func frame(_ bytes: Data, tag: String?) throws -> Int {
        guard let tag else {
            return try #require(bytes.range(of: Data([0x04, 0x22, 0x4D, 0x18]), in: 64..<bytes.count)).lowerBound
        }
        // A record: skippable magic (4 bytes), size (4), then the tag.
        return try #require(bytes.range(of: Data(tag.utf8))).lowerBound - 8
    }

    static func verify(_ store: String) -> (text: (status: Int32, stdout: String, stderr: String), json: [String: Any]?) {
        let text = navlog("verify", store)
        let json = try? JSONOutputTests.object("verify", navlog("verify", store, "--json"))
        return (text, json)
    }

    @Test("An intact store: exit 0, one ok line, and a store entry in --json")
    func intact() throws {
        let (dir, _, store) = try generatedInputs(sessions: 12)
        _ = dir
        let (text, json) = Self.verify(store)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.hasPrefix("\(store): ok, 1 segment, ") && text.stdout.contains(" 12 sessions, "), "\(text.stdout)")
        let entry = try #require((json?["files"] as? [[String: Any]])?.first)
        #expect(entry["status"] as? String == "ok" && entry["sessions"] as? Int == 12 && (entry["checkpoints"] as? Int ?? 0) > 0)
        #expect(navlog("verify", store, "--json").status == 0)
        // Written without a screen projection: not a problem, but said.
        #expect(entry["projectionBehind"] as? String == "the store has none", "\(entry)")
    }

    @Test("A screen projection cut to nothing or deleted is behind, not damage: exit 0 with a note naming reindex; after it, no note")
    func projectionBehind() throws {
        let (dir, _, store) = try generatedInputs(sessions: 12)
        _ = dir
        let views = store + "/00000001.views"
        #expect(navlog("reindex", store).status == 0)
        let whole = Self.verify(store)
        let entry = try #require((whole.json?["files"] as? [[String: Any]])?.first)
        #expect(whole.text.status == 0 && whole.text.stderr.isEmpty && entry["projectionBehind"] is NSNull, "\(whole.text.stderr) \(entry)")
        #expect(try SegmentReader(store: SegmentStore.open(at: store)).commitCount > 1)
        for (cut, why) in [(true, "it covers 0 of the store's \(try SegmentReader(store: SegmentStore.open(at: store)).commitCount) commits"), (false, "the store has none")] {
            if cut { #expect(truncate(views, 0) == 0) } else { try FileManager.default.removeItem(atPath: views) }
            let (text, json) = Self.verify(store)
            #expect(text.status == 0 && text.stdout.hasPrefix("\(store): ok, "), "\(text.stdout)\(text.stderr)")
            #expect(text.stderr.contains("note: the screen projection is behind (\(why))") && text.stderr.contains("navlog reindex \(store)"),
                    "\(text.stderr)")
            let entry = try #require((json?["files"] as? [[String: Any]])?.first)
            #expect(entry["projectionBehind"] as? String == why, "\(entry)")
            // The advice followed: reindex, then verify has nothing to say.
            #expect(navlog("reindex", store).status == 0)
            let after = Self.verify(store)
            #expect(after.text.status == 0 && after.text.stderr.isEmpty, "\(after.text.stderr)")
        }
    }

    @Test("A flipped bit in a data frame, a commit index or a checkpoint: exit 1, each with its segment, byte and kind")
    func flippedBits() throws {
        let (dir, _, store) = try generatedInputs(sessions: 12)
        let good = try Data(contentsOf: URL(fileURLWithPath: store + "/00000001.nls"))
        for (tag, kind, words) in [(nil, "dataFrame", "data frame:"), ("NLCI", "commitIndex", "commit index:"),
                                   ("NLSC", "checkpoint", "checkpoint:")] as [(String?, String, String)] {
            let at = try Self.frame(good, tag: tag)
            let copy = dir.file("copy-\(kind)")
            try FileManager.default.copyItem(atPath: store, toPath: copy)
            var bad = good
            bad[at + 24] ^= 0x04
            try bad.write(to: URL(fileURLWithPath: copy + "/00000001.nls"))
            let (text, json) = Self.verify(copy)
            #expect(text.status == 1, "\(kind): \(text.stdout)\(text.stderr)")
            #expect(text.stdout.contains("\(copy)/00000001.nls: byte \(at)") && text.stdout.contains(words), "\(kind): \(text.stdout)")
            #expect(text.stdout.split(separator: "\n").last?.contains("problem") == true, "\(text.stdout)")
            // A block that cannot be read is one problem, not also the index's counts and the next block's continuation.
            if kind == "dataFrame" {
                #expect(text.stdout.split(separator: "\n").count == 2 && text.stdout.contains("\(copy): 1 problem; "), "\(text.stdout)")
            }
            // Each problem says its place once, and no problem carries repair's advice (stderr's closing line does).
            for line in text.stdout.split(separator: "\n") {
                #expect(line.components(separatedBy: "00000001.nls").count <= 2 && !line.contains("navlog repair") && !line.contains("\(words) \(words)"), "\(kind): \(line)")
            }
            #expect(text.stderr.contains("1 of 1 store damaged; 'navlog repair \(copy)' sets the damage aside"), "\(kind): \(text.stderr)")
            let entry = try #require((json?["files"] as? [[String: Any]])?.first)
            let problems = try #require(entry["problems"] as? [[String: Any]])
            #expect(entry["status"] as? String == "damaged" && entry["tornTailOnly"] as? Bool == false)
            #expect(problems.contains { $0["kind"] as? String == kind && $0["offset"] as? Int == at }, "\(kind): \(problems)")
        }
        let both = navlog("verify", store, dir.file("copy-dataFrame"))
        #expect(both.status == 1 && both.stderr.contains("1 of 2 stores damaged; 'navlog repair \(dir.file("copy-dataFrame"))' sets the damage aside"),
                "\(both.stderr)")
        // The advice followed: the store verifies.
        #expect(navlog("repair", dir.file("copy-dataFrame")).status == 0)
        #expect(navlog("verify", store, dir.file("copy-dataFrame")).status == 0)
        let two = navlog("verify", dir.file("copy-commitIndex"), dir.file("copy-checkpoint"))
        #expect(two.status == 1 && two.stderr.hasSuffix("2 of 2 stores damaged; 'navlog repair INPUT' for each sets its damage aside\n"), "\(two.stderr)")
    }

    @Test("A flipped bit in the screen projection, or in a log: exit 1, and the closing line names the repair that verifies it")
    func adviceFollowed() throws {
        let (dir, _, store) = try generatedInputs(sessions: 12)
        #expect(navlog("reindex", store).status == 0)
        let views = store + "/00000001.views"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: views))
        bytes[bytes.count / 2] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: views))
        let damaged = navlog("verify", store)
        #expect(damaged.status == 1 && damaged.stdout.contains("screen projection: "), "\(damaged.stdout)")
        #expect(damaged.stderr.hasSuffix("1 of 1 store damaged; 'navlog repair \(store)' writes its screen projection again\n"), "\(damaged.stderr)")
        #expect(navlog("repair", store).status == 0)
        #expect(navlog("verify", store).status == 0)

        let log = dir.file("s.navlog")
        #expect(navlog("export", "log", store, "--session", "s-000003", "-o", log).status == 0)
        var logBytes = try Data(contentsOf: URL(fileURLWithPath: log))
        logBytes[logBytes.count / 2] ^= 0x10
        try logBytes.write(to: URL(fileURLWithPath: log))
        let bad = navlog("verify", log)
        #expect(bad.status == 1 && bad.stderr.hasSuffix("1 of 1 log damaged; 'navlog repair \(log)' sets the damage aside\n"), "\(bad.stderr)")
        #expect(navlog("repair", log).status == 0)
        #expect(navlog("verify", log).status == 0)
    }

    @Test("A torn tail alone: exit 1, reported as a torn tail; readers still read the committed commits")
    func tornTail() throws {
        let (dir, ndjson, store) = try generatedInputs(sessions: 12)
        _ = dir
        let segment = store + "/00000001.nls"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        let at = bytes.count
        let frame = try Self.frame(bytes, tag: nil)
        bytes.append(bytes[frame..<(frame + 200)])
        try bytes.write(to: URL(fileURLWithPath: segment))
        let (text, json) = Self.verify(store)
        #expect(text.status == 1)
        #expect(text.stdout.contains("\(segment): byte \(at)") && text.stdout.contains("torn tail: ") && text.stdout.contains("a torn tail only"), "\(text.stdout)")
        let entry = try #require((json?["files"] as? [[String: Any]])?.first)
        #expect(entry["status"] as? String == "damaged" && entry["tornTailOnly"] as? Bool == true)
        let a = navlog("export", "events", ndjson), b = navlog("export", "events", store)
        #expect(b.status == 0 && a.stdout.split(separator: "\n").sorted() == b.stdout.split(separator: "\n").sorted())
    }

    @Test("A store of an unknown major version is trouble: exit 2, one line on stderr")
    func unreadable() throws {
        let (dir, _, store) = try generatedInputs(sessions: 2)
        _ = dir
        try Data("navlog-store 9.0\n".utf8).write(to: URL(fileURLWithPath: store + "/navlog-store"))
        let r = navlog("verify", store)
        #expect(r.status == 2 && r.stderr.contains("9.0"), "\(r.stderr)")
        let j = try JSONOutputTests.object("verify", navlog("verify", store, "--json"))
        #expect(j["trouble"] as? Int == 1)
    }
}
