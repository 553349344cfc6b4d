import NavLogTestSupport
import Foundation
import Testing
import NavLogCore
@testable import NavLogStore

@Suite("What a path names (InputKind)")
struct InputKindTests {
    @Test("Each kind of input is told apart, a store's segment file among them")
    func everyKind() throws {
        let dir = try TemporaryDirectory()
        let ndjson = dir.file("events.ndjson")
        writeFile(ndjson, Array(sampleEvents(3)[0].canonicalLine.utf8) + [0x0A])
        let log = dir.file("s-1.navlog")
        _ = try writeLog(log, sampleEvents(5))
        let store = dir.file("store")
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: smallSegmentOptions)
        for line in interleaved(segmentSessions(3, maxEvents: 10)) { try writer.add(line) }
        try writer.close()
        let versionOne = dir.file("v1")
        let logs = try VersionOneStore(directory: versionOne, create: true)
        let v1writer = try logs.openWriter(forSession: "a")
        try v1writer.append(sampleEvents(2, session: "a")[0])
        try v1writer.close()
        let other = dir.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        writeFile(other + "/notes.txt", Array("hello".utf8))
        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)

        #expect(InputKind.of("-") == .standardInput)
        #expect(InputKind.of(ndjson) == .ndjson)
        #expect(InputKind.of(log) == .log)
        let segment = try #require(try segmentFiles(store).first)
        #expect(InputKind.of(segment) == .segmentFile)
        #expect(InputKind.of(store) == .directory(.segmentStore))
        #expect(InputKind.of(store + "/") == .directory(.segmentStore))
        #expect(InputKind.of(versionOne) == .directory(.versionOne))
        #expect(InputKind.of(other) == .directory(.other))
        #expect(InputKind.of(empty) == .directory(.empty))
        #expect(InputKind.of(dir.file("absent")) == .missing(errno: ENOENT))
        // As a place to write a store: absent and empty make one, files are not stores.
        #expect(InputKind.of(dir.file("absent")).storeLayout == .empty)
        #expect(InputKind.of(log).storeLayout == .other)
        #expect(InputKind.of(log).isLog && InputKind.of(segment).isLog && !InputKind.of(ndjson).isLog)
    }
}
