import Foundation
import NavLogTestSupport
import Testing

/// The commands that give events their seq refuse a seq that does not
/// increase, and an absent seq after the largest one, in the same words
/// (exit 1, the other lines kept): `append` to a log, `ingest` into a store
/// and `state` of NDJSON input.
@Suite struct SeqRefusalTests {
    static let lines = """
        {"session":"s","seq":5,"t":"2026-11-20T10:00:00Z","type":"mark","label":"a"}
        {"session":"s","seq":3,"t":"2026-11-20T10:00:00Z","type":"mark","label":"b"}
        {"session":"s","seq":9223372036854775807,"t":"2026-11-20T10:00:00Z","type":"mark","label":"c"}
        {"session":"s","t":"2026-11-20T10:00:00Z","type":"mark","label":"d"}

        """
    static let notIncreasing = #"field "seq": 3 does not increase (previous accepted seq is 5)"#
    static let exhausted = #"field "seq": session has reached the largest seq"#

    @Test func append() throws {
        let dir = try TemporaryDirectory()
        let r = navlog("append", dir.file("s.navlog"), stdin: Self.lines)
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").prefix(2) == [
            "navlog: <stdin>:2: event rejected: \(Self.notIncreasing)",
            "navlog: <stdin>:4: event rejected: \(Self.exhausted)",
        ], "\(r.stderr)")
    }

    @Test func ingest() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.ndjson", Self.lines)
        let r = navlog("ingest", input, "--store", dir.file("store"))
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(input):2: \(Self.notIncreasing)\n"), "\(r.stderr)")
        #expect(r.stderr.contains("\(input):4: \(Self.exhausted)\n"), "\(r.stderr)")
    }

    @Test func state() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.ndjson", Self.lines)
        let r = navlog("state", input)
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(input):2: \(Self.notIncreasing)\n"), "\(r.stderr)")
        #expect(r.stderr.contains("\(input):4: \(Self.exhausted)\n"), "\(r.stderr)")
    }
}
