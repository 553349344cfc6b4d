import Foundation
import NavLogCore
import NavLogStore
import Testing
import NavLogTestSupport

/// `navlog store upgrade DIR`: a version-1 store becomes a segment store
/// holding the same sessions, its old logs kept; stopped at any point,
/// running it again finishes or restarts the job; a damaged log changes
/// nothing; a folder of a user's own files is no store and is left alone.
@Suite struct StoreUpgradeTests {
    /// A version-1 store of `sessions` generated sessions (one log each, by `navlog append`); their lines by session.
    static func versionOneStore(_ path: String, sessions: Int = 4) throws -> [String: [String]] {
        let text = navlog("generate", "--sessions", "\(sessions)", "--seed", "31", "--events-per-session", "20-40").stdout
        var lines: [String: [String]] = [:]
        for line in text.split(separator: "\n") { lines[try EventParser.parse(String(line)).session, default: []].append(String(line)) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (session, events) in lines {
            let log = path + "/" + VersionOneStore.fileName(forSession: session)
            #expect(navlog("append", log, stdin: events.joined(separator: "\n") + "\n").status == 0)
        }
        return lines
    }

    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func aVersionOneStoreBecomesASegmentStoreWithTheSameSessions() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        let expected = try Self.versionOneStore(store)
        let r = navlog("store", "upgrade", store)
        #expect(r.status == 0, "\(r.stderr)")
        let events = expected.values.reduce(0) { $0 + $1.count }
        let (_, old) = StoreUpgrade.workPaths(for: store)
        #expect(r.stdout == "upgraded \(store): 4 logs, \(events) events of 4 sessions into a segment store\n"
                + "the version-1 logs are kept, unchanged, in \(old) (remove it once the new store serves you)\n")
        #expect(try SegmentStoreContents.lines(store) == expected)
        #expect(try SegmentStoreContents.problems(store) == [])
        #expect(Self.names(dir.path) == [".logs.navlog-v1", "logs"], "only the old logs kept beside it")
        #expect(Self.names(old).count == 4 && Self.names(old).allSatisfy { $0.hasSuffix(".navlog") })
        // Writable now; and the upgrade again: nothing to do.
        #expect(navlog("ingest", try dir.file("more.ndjson", ""), "--store", store).status == 0)
        let again = navlog("store", "upgrade", store)
        #expect(again.status == 0 && again.stdout.contains("is a segment store"), "\(again.stdout)")
        // Not a store at all: trouble.
        let none = navlog("store", "upgrade", dir.file("nothing"))
        #expect(none.status == 2 && none.stderr.contains("not a version-1 store"), "\(none.stderr)")
    }

    /// Each point an upgrade can stop at, as the directories are left there; running it again ends in the new store.
    @Test func anUpgradeStoppedAtAnyPointIsFinishedByRunningItAgain() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        let (building, old) = StoreUpgrade.workPaths(for: store)
        #expect(building == dir.file(".logs.navlog-upgrade") && old == dir.file(".logs.navlog-v1"))
        let expected = try Self.versionOneStore(store)
        func check(_ stage: String) throws {
            let r = navlog("store", "upgrade", store)
            #expect(r.status == 0, "\(stage): \(r.stderr)")
            #expect(try SegmentStoreContents.lines(store) == expected, "\(stage)")
            #expect(Self.names(dir.path).filter { $0 != "in.ndjson" } == [".logs.navlog-v1", "logs"], "\(stage): \(Self.names(dir.path))")
        }
        func reset() throws {
            for path in [store, building, old] { try? FileManager.default.removeItem(atPath: path) }
            _ = try Self.versionOneStore(store)
        }
        // 1. Stopped while building: a partial new store beside the old one (its manifest not even written).
        try FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: false)
        _ = try dir.file(".logs.navlog-upgrade/LOCK", "")
        _ = try dir.file(".logs.navlog-upgrade/00000001.nls", "torn")
        try check("while building")
        // 2. Stopped between the two renames: the old store moved aside, the new one complete.
        try reset()
        #expect(navlog("ingest", try dir.file("in.ndjson", expected.values.flatMap { $0 }.joined(separator: "\n") + "\n"),
                       "--store", building).status == 0)
        try FileManager.default.moveItem(atPath: store, toPath: old)
        try check("between the renames")
        // 3. Done: run again, nothing changes and the kept logs stay as they are.
        try reset()
        #expect(navlog("store", "upgrade", store).status == 0)
        let kept = Self.names(old)
        try check("after it was done")
        #expect(Self.names(old) == kept)
    }

    /// A log that cannot be read whole stops the upgrade before anything changes: exit 1.
    @Test func aDamagedLogChangesNothing() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        _ = try Self.versionOneStore(store, sessions: 2)
        let log = store + "/" + Self.names(store)[0]
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: log))
        let before = Self.names(store)
        let r = navlog("store", "upgrade", store)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("navlog: \(log): ") && r.stderr.contains("nothing was changed"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(Self.names(store) == before && Self.names(dir.path) == ["logs"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes)
    }

    /// A folder of a user's own files that happens to hold logs is not a
    /// version-1 store: no writer tells the user to upgrade it, and `store
    /// upgrade` refuses it with every file left as it was.
    @Test func aFolderOfUserFilesWithLogsIsNoStoreAndIsLeftAlone() throws {
        let dir = try TemporaryDirectory()
        let work = dir.file("work")
        try FileManager.default.createDirectory(atPath: work + "/notes", withIntermediateDirectories: true)
        let sample = navlog("generate", "--sessions", "1", "--seed", "3").stdout
        #expect(navlog("append", work + "/run-a.navlog", stdin: sample).status == 0)
        _ = try dir.file("work/sessions.ndjson", sample)
        _ = try dir.file("work/funnel.svg", "<svg/>")
        _ = try dir.file("work/notes/todo.txt", "look at run-a\n")
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in ["run-a.navlog", "sessions.ndjson", "funnel.svg", "notes/todo.txt"] {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: work + "/" + name))
            }
            return files
        }
        let before = try snapshot()
        let ingest = navlog("ingest", work + "/sessions.ndjson", "--store", work)
        #expect(ingest.status == 2 && ingest.stderr.contains("not a navlog store") && !ingest.stderr.contains("upgrade"),
                "\(ingest.stderr)")
        let upgrade = navlog("store", "upgrade", work)
        #expect(upgrade.status == 2 && upgrade.stderr.contains("not a version-1 store"), "\(upgrade.stderr)")
        #expect(Self.names(dir.path) == ["work"] && Self.names(work) == ["funnel.svg", "notes", "run-a.navlog", "sessions.ndjson"])
        #expect(try snapshot() == before)
        // A real version-1 store with one file of the user's in it is no store either.
        let store = dir.file("logs")
        _ = try Self.versionOneStore(store, sessions: 2)
        _ = try dir.file("logs/README.txt", "mine\n")
        let mixed = navlog("store", "upgrade", store)
        #expect(mixed.status == 2 && mixed.stderr.contains("not a version-1 store"), "\(mixed.stderr)")
        #expect(Self.names(store).count == 3 && !Self.names(dir.path).contains(".logs.navlog-v1"))
    }
}
