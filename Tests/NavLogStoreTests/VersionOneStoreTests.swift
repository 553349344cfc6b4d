import Testing
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// The store maps arbitrary session ids to safe, distinct file names and
/// finds each session's log again by the id inside it.
@Suite("VersionOneStore")
struct VersionOneStoreTests {
    static let hostile = ["../x", "/etc/passwd", "a/b", "A", "a", ".", "..", "-rf", String(repeating: "é", count: 300),
                          "tab\there\nnewline\u{1}", "\u{0}", "Ünïcode", "a b", "a_b", "a?b", "a*b", "a\\b",
                          "CON", "nul.txt", "x/../../y"]

    @Test func fileNamesAreSafeAndDistinct() {
        var seen: Set<String> = []
        for id in Self.hostile {
            let name = VersionOneStore.fileName(forSession: id)
            #expect(!name.contains("/"), "\(name)")
            #expect(!name.hasPrefix(".") && !name.hasPrefix("-"), "\(name)")
            #expect(name.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F }, "\(name)")
            #expect(name.utf8.count <= 67, "\(name)")
            #expect(name.hasSuffix(".navlog"))
            // Distinct even when compared case-insensitively.
            #expect(seen.insert(name.lowercased()).inserted, "collision for \(id.debugDescription): \(name)")
        }
        #expect(VersionOneStore.fileName(forSession: "user/42").hasPrefix("user_42-"))
        #expect(VersionOneStore.fileName(forSession: "s-1") == VersionOneStore.fileName(forSession: "s-1"))
    }

    @Test func writesFindsAndListsHostileSessions() throws {
        let dir = try TemporaryDirectory()
        let store = try VersionOneStore(directory: dir.file("store"), create: true)
        for (i, id) in Self.hostile.enumerated() {
            let writer = try store.openWriter(forSession: id)
            try writer.append(Event(session: id, t: Timestamp(milliseconds: Int64(i) * 1000), kind: .mark(label: "m")))
            try writer.close()
        }
        let entries = try store.entries()
        #expect(entries.count == Self.hostile.count)
        #expect(Set(entries.compactMap(\.session)) == Set(Self.hostile))
        for entry in entries { #expect(entry.path.hasPrefix(store.directory + "/")) }
        for id in Self.hostile {
            let reader = try #require(try store.reader(forSession: id))
            #expect(try reader.session() == id)
            #expect(reader.eventCount == 1)
        }
        #expect(try store.path(forSession: "never") == nil)
        // Appending continues the seq.
        let again = try store.openWriter(forSession: "A")
        #expect(try again.append(Event(session: "A", t: Timestamp(milliseconds: 5), kind: .mark(label: "n"))) == 2)
        try again.close()
    }

    @Test func aCollidingNameMovesToTheNextAttempt() throws {
        let dir = try TemporaryDirectory()
        let store = try VersionOneStore(directory: dir.path)
        // Occupy the first name of "b" with a log of session "a".
        let taken = dir.file(VersionOneStore.fileName(forSession: "b"))
        let squatter = try LogWriter(path: taken)
        try squatter.append(Event(session: "a", t: Timestamp(milliseconds: 0), kind: .mark(label: "x")))
        try squatter.close()
        let writer = try store.openWriter(forSession: "b")
        #expect(writer.path.hasSuffix("~1.navlog"))
        try writer.append(Event(session: "b", t: Timestamp(milliseconds: 0), kind: .mark(label: "y")))
        try writer.close()
        #expect(try store.path(forSession: "b") == writer.path)
    }

    /// A log of the layout that `navlog repair` cut keeps its side file
    /// beside it, torn tail or damage: the directory is still a store.
    @Test func sideFilesOfRepairKeepItAStore() throws {
        let log = VersionOneStore.fileName(forSession: "s-1")
        for side in [".torn-55", ".damaged-55", ".damaged-55.1"] {
            #expect(VersionOneStore.isVersionOne(names: [log, log + side]), "\(side)")
        }
        #expect(!VersionOneStore.isVersionOne(names: [log, log + ".damaged-x"]))
        #expect(!VersionOneStore.isVersionOne(names: [log, "other.navlog.damaged-55"]))
    }

    @Test func aFileIsNotAStore() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("plain")
        _ = try LogWriter(path: file)
        #expect(throws: FileError.self) { try VersionOneStore(directory: file) }
        #expect(throws: FileError.self) { try VersionOneStore(directory: dir.file("missing")) }
        #expect(!VersionOneStore.isStore(file) && VersionOneStore.isStore(dir.path))
    }
}
