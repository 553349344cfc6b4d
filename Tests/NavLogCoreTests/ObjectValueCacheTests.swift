import Testing
@testable import NavLogCore

/// The general parser decodes each distinct `app`, `device` and `meta`
/// object once (``ObjectValueCache``) and the canonical writer reuses its
/// bytes: a long-lived parser must give, line by line, the event and the
/// canonical line that a fresh parser and ``CanonicalWriter/write(_:)`` give.
@Suite("Object value cache")
struct ObjectValueCacheTests {
    /// The event and canonical line of `line` read by a parser that has seen nothing.
    static func fresh(_ line: String) throws -> (Event, [UInt8]) {
        let event = try EventParser.parse(line)
        var writer = CanonicalWriter()
        writer.write(event)
        return (event, writer.bytes)
    }

    /// Reads `lines` in order with one parser and one writer, each line checked against ``fresh(_:)``.
    static func expectSameAsFresh(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var parser = EventLineParser(checkingCanonicalForm: true)
        var writer = CanonicalWriter()
        for line in lines {
            let (expectedEvent, expectedLine) = try fresh(line)
            let event = try parser.parse(Array(line.utf8))
            writer.reset()
            parser.writeCanonical(event, into: &writer)
            #expect(event == expectedEvent, "event of \(line)", sourceLocation: sourceLocation)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expectedLine, as: UTF8.self),
                    "line of \(line)", sourceLocation: sourceLocation)
        }
    }

    static func start(_ session: String, app: String, device: String, meta: String? = nil, seq: String = #""seq": 1, "#) -> String {
        #"{"type": "session.start", "session": "\#(session)", \#(seq)"t": "2026-11-20T12:00:00.13736+02:00", "app": \#(app), "device": \#(device)\#(meta.map { ", \"meta\": \($0)" } ?? "")}"#
    }

    @Test func repeatedAndDifferentObjectsGiveTheirOwnEventsAndLines() throws {
        let apps = [#"{"build": "9281", "version": "3.1.0"}"#, #"{"version": "3.1.0", "build": "9281"}"#,
                    #"{"build":"9281","version":"3.1.0"}"#, #"{"build": "7662", "version": "3.1.1", "n": 1.50}"#]
        let devices = [#"{"idiom": "pad", "model": "iPad16,3", "os": "iPadOS 17.6"}"#,
                       #"{"os": "iOS 18.1", "model": "iPhone16,2", "idiom": "phone"}"#,
                       #"{"idiom": "phone", "model": "iPh\u006fne \"16\"", "os": "iOS\t18", "x": {"b": [1, {"d": null, "c": true}], "a": -0.5e3}}"#,
                       #"{"idiom": "phone", "model": "iPhone – ☃", "os": "iOS 18.2"}"#, "{}"]
        let metas: [String?] = [nil, #"{"locale": "fr_FR"}"#, #"{"locale": "pt_BR", "ab": ["x", "y"]}"#, "{ }"]
        var lines: [String] = []
        for round in 0..<3 {
            for (a, app) in apps.enumerated() {
                for (d, device) in devices.enumerated() {
                    let meta = metas[(a + d + round) % metas.count]
                    let seq = (a + d) % 3 == 0 ? "" : #""seq": 1, "#
                    lines.append(Self.start("s-\(round)-\(a)-\(d)", app: app, device: device, meta: meta, seq: seq))
                    // Other kinds with `meta` between them.
                    lines.append(#"{"t": "2026-11-20T10:00:01Z", "meta": \#(meta ?? "{}"), "session": "s-\#(round)", "type": "mark", "label": "x"}"#)
                }
            }
        }
        try Self.expectSameAsFresh(lines)
    }

    @Test func manyDistinctObjectsEvictEachOtherWithoutMixingThemUp() throws {
        // More distinct objects than the cache has slots, each seen twice, far apart and then in a row.
        let lines = (0..<600).map { i in
            Self.start("s-\(i % 7)", app: #"{"build": "\#(i % 300)", "version": "1.\#(i % 300)"}"#,
                       device: #"{"os": "\#(i % 299)", "idiom": "phone"}"#, meta: #"{"k": \#(i % 301)}"#)
        }
        try Self.expectSameAsFresh(lines + lines.reversed())
    }

    @Test func aRejectedObjectIsRejectedEveryTime() throws {
        let good = Self.start("s-1", app: #"{"build": "1", "version": "2"}"#, device: #"{"idiom": "pad"}"#)
        let duplicate = Self.start("s-1", app: #"{"build": "1", "version": "2"}"#, device: #"{"idiom": "pad", "x": {"a": 1, "a": 2}}"#)
        let expected = #expect(throws: EventParseError.self) { try EventParser.parse(duplicate) }
        var parser = EventLineParser(checkingCanonicalForm: true)
        for line in [good, duplicate, good, duplicate, duplicate] {
            if line == duplicate {
                let error = #expect(throws: EventParseError.self) { try parser.parse(Array(line.utf8)) }
                #expect(error == expected)
            } else {
                _ = try parser.parse(Array(line.utf8))
            }
        }
    }

    @Test func aLineReadAfterwardsDoesNotTakeTheObjectsOfTheOneBefore() throws {
        let start = Self.start("s-1", app: #"{"version": "2", "build": "1"}"#, device: #"{"idiom": "pad"}"#,
                               meta: #"{"z": 1, "a": 2}"#)
        let later = [
            // Canonical: read by the fast path.
            #"{"app":{"build":"1","version":"2"},"device":{"idiom":"phone"},"meta":{"a":3},"seq":2,"session":"s-1","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
            // An object too long for the cache.
            Self.start("s-2", app: #"{"build": "\#(String(repeating: "9", count: 300))"}"#, device: "{}", meta: #"{"b": 1, "a": 0}"#),
            // No objects at all.
            #"{"type": "mark", "session": "s-1", "t": "2026-11-20T10:00:01Z", "label": "x"}"#,
        ]
        var parser = EventLineParser(checkingCanonicalForm: true)
        for line in later {
            _ = try parser.parse(Array(start.utf8))
            // A line that fails in between leaves nothing behind either.
            #expect(throws: EventParseError.self) { try parser.parse(Array(#"{"type": "mark", "session": 1}"#.utf8)) }
            _ = try parser.parse(Array(start.utf8))
            let event = try parser.parse(Array(line.utf8))
            var writer = CanonicalWriter()
            parser.writeCanonical(event, into: &writer)
            #expect(writer.bytes == (try Self.fresh(line)).1, "line of \(line)")
        }
    }
}
