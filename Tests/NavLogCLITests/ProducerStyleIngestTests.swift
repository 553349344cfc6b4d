import Foundation
import Testing
import NavLogCore
import NavLogTestSupport

/// Lines as other producers write them — keys in another order, spaces
/// after `:` and `,`, `t` with a `+02:00` offset and more fraction digits,
/// `seq` left out on some lines — are read once on the way into a store:
/// what that one reading gives is stored, folded and projected. The store,
/// its projection and every answer are then those of the same events
/// written canonically.
@Suite struct ProducerStyleIngestTests {
    /// `line`, a canonical event line, as another producer writes it; `dropSeq` leaves its seq out.
    static func producerStyle(_ line: Substring, dropSeq: Bool) throws -> String {
        guard case .object(var members) = try JSONValue.parse(String(line)) else {
            throw Problem("not an object: \(line)")
        }
        guard case .string(let t)? = members["t"] else { throw Problem("no t: \(line)") }
        members["t"] = .string(try offset(t))
        if dropSeq { members["seq"] = nil }
        return write(.object(members))
    }

    /// `2026-11-20T10:00:00.082Z` as `2026-11-20T12:00:00.082000+02:00` (the same instant).
    static func offset(_ t: String) throws -> String {
        let hour = Int(t.dropFirst(11).prefix(2)) ?? 99
        guard t.count == 24, t.hasSuffix("Z"), hour + 2 < 24 else { throw Problem("t outside the day: \(t)") }
        return String(t.prefix(11)) + String(format: "%02d", hour + 2) + t.dropFirst(13).dropLast() + "000+02:00"
    }

    /// JSON with keys in reverse code point order and a space after every `:` and `,`.
    static func write(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            let keys = members.keys.sorted { utf8Less($1, $0) }
            return "{" + keys.map { JSONValue.string($0).canonicalText + ": " + write(members[$0]!) }.joined(separator: ", ") + "}"
        case .array(let elements):
            return "[" + elements.map(write).joined(separator: ", ") + "]"
        default:
            return value.canonicalText
        }
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("producer-style lines give the store, projection and answers of the same events written canonically")
    func sameStoreAsCanonical() throws {
        let dir = try TemporaryDirectory()
        let canonical = dir.file("canonical.ndjson")
        #expect(navlog("generate", "--sessions", "60", "--seed", "11", "--events-per-session", "3-25", "--interleave",
                       "--app-versions", "1.0,2.0", "-o", canonical).status == 0)
        let lines = try String(contentsOfFile: canonical, encoding: .utf8).split(separator: "\n")
        #expect(lines.count > 300)
        // Every seventh line without its seq: numbered after its session's previous line, as it was.
        let producer = dir.file("producer.ndjson")
        let rewritten = try lines.enumerated().map { try Self.producerStyle($1, dropSeq: $0 % 7 == 3) }
        try (rewritten.joined(separator: "\n") + "\n").write(toFile: producer, atomically: false, encoding: .utf8)
        #expect(rewritten.allSatisfy { $0.contains("+02:00\"") && $0.contains(": ") })

        var stores: [String] = []
        for (name, input) in [("from-canonical", canonical), ("from-producer", producer)] {
            let store = dir.file(name)
            // Several commits, each with its projection block.
            let r = navlog("ingest", input, "--store", store, "--commit-interval", "0", "--chunk-lines", "128", "--json")
            #expect(r.status == 0 && r.stdout.contains("\"rejected\":0") && r.stdout.contains("\"projectionBehind\":null"),
                    "\(r.stdout) \(r.stderr)")
            stores.append(store)
        }
        // The same files, byte for byte: data, indexes, checkpoints and projection.
        let names = try FileManager.default.contentsOfDirectory(atPath: stores[0]).filter { $0.hasSuffix(".nls") || $0.hasSuffix(".views") }
        #expect(names.contains("00000001.views"))
        for name in names {
            #expect(FileManager.default.contents(atPath: stores[0] + "/" + name) == FileManager.default.contents(atPath: stores[1] + "/" + name),
                    "\(name)")
        }
        let exported = stores.map { navlog("export", "events", $0, "--format", "ndjson").stdout }
        #expect(exported[1] == exported[0])
        #expect(exported[1].split(separator: "\n").sorted() == lines.sorted())
        #expect(navlog("cat", stores[1], "--session", "s-000007").stdout == navlog("cat", stores[0], "--session", "s-000007").stdout)
        // The projection written from the lines as read answers as the events do.
        try ProjectionFromFirstCommitTests.answersAreTheEvents(stores[1], in: dir)
        #expect(try ProjectionFromFirstCommitTests.isComplete(stores[1]))
    }

    @Test("a line without seq is stored with the seq it is numbered with where the canonical order puts it")
    func seqPutInPlace() throws {
        let dir = try TemporaryDirectory()
        // `seq` among extra fields (`sep` before it, `sequence` between it and `session`), first of all, and after objects.
        let producer = [
            #"{"type": "mark", "label": "a", "session": "s-1", "t": "2026-11-20T12:00:00.5+02:00", "sequence": 7, "sep": true, "zz": [1, 2]}"#,
            #"{"tab": "home", "t": "2026-11-20T10:00:01Z", "session": "s-1", "type": "tab.select"}"#,
            #"{"type": "session.start", "session": "s-2", "t": "2026-11-20T10:00:02.25Z", "app": {"version": "1.0", "build": "7"}, "meta": {"b": 1, "a": "x"}, "": 0}"#,
            #"{"scene": "main", "cause": 1, "type": "scene.open", "session": "s-2", "t": "2026-11-20T10:00:03Z"}"#,
        ]
        let canonical = [
            #"{"label":"a","sep":true,"seq":1,"sequence":7,"session":"s-1","t":"2026-11-20T10:00:00.500Z","type":"mark","zz":[1,2]}"#,
            #"{"seq":2,"session":"s-1","t":"2026-11-20T10:00:01.000Z","tab":"home","type":"tab.select"}"#,
            #"{"":0,"app":{"build":"7","version":"1.0"},"meta":{"a":"x","b":1},"seq":1,"session":"s-2","t":"2026-11-20T10:00:02.250Z","type":"session.start"}"#,
            #"{"cause":1,"scene":"main","seq":2,"session":"s-2","t":"2026-11-20T10:00:03.000Z","type":"scene.open"}"#,
        ]
        let store = dir.file("store")
        for (name, lines) in [("producer.ndjson", producer), ("canonical.ndjson", canonical)] {
            try (lines.joined(separator: "\n") + "\n").write(toFile: dir.file(name), atomically: false, encoding: .utf8)
        }
        let first = navlog("ingest", dir.file("producer.ndjson"), "--store", store, "--json")
        #expect(first.status == 0 && first.stdout.contains("\"stored\":4"), "\(first.stdout) \(first.stderr)")
        #expect(navlog("export", "events", store, "--format", "ndjson").stdout.split(separator: "\n").sorted() == canonical.map { Substring($0) }.sorted())
        // The canonical lines are the very lines stored: nothing new.
        let again = navlog("ingest", dir.file("canonical.ndjson"), "--store", store, "--json")
        #expect(again.status == 0 && again.stdout.contains("\"stored\":0") && again.stdout.contains("\"duplicates\":4"), "\(again.stdout) \(again.stderr)")
    }
}
