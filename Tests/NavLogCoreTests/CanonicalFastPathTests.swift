import Testing
@testable import NavLogCore
import NavLogSample

/// The fast paths of the parser and canonical writer (cached day prefix,
/// escape-free strings copied whole, only a kind's keys visited) give
/// exactly what the general code gives.
@Suite("Canonical fast paths")
struct CanonicalFastPathTests {
    /// A fixed-seed stream of instants around day boundaries, leap days,
    /// 1970 and the ends of the 4-digit years, in a jumbled order.
    static func instants() -> [Int64] {
        var out: [Int64] = [Timestamp.minMilliseconds, Timestamp.maxMilliseconds, 0, -1, 86_399_999, 86_400_000]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in 0..<4000 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            let day: Int64 = i % 3 == 0 ? Int64(x % 3) + 20_412 : Int64(x % 3_000_000) - 719_528
            let ms = i % 5 == 0 ? [0, 1, 86_399_999, 43_200_000][i % 4] : Int64((x >> 20) % 86_400_000)
            out.append(day * 86_400_000 + ms)
        }
        return out.filter { $0 >= Timestamp.minMilliseconds && $0 <= Timestamp.maxMilliseconds }
    }

    @Test func writingTimestampsMatchesTheGeneralFormatter() {
        var writer = CanonicalWriter()
        for ms in Self.instants() {
            let t = Timestamp(milliseconds: ms)
            writer.reset()
            writer.writeTimestamp(t)
            #expect(writer.string == "\"\(t.rfc3339)\"", "ms \(ms)")
        }
    }

    @Test func parsingCanonicalTimestampsMatchesTheGeneralParser() {
        var cache = CanonicalTimestampCache()
        for ms in Self.instants() {
            let text = Timestamp(milliseconds: ms).rfc3339
            let fast = Array(text.utf8).withUnsafeBytes { cache.parse($0) }
            #expect(fast == Timestamp(rfc3339: text), "\(text)")
            #expect(fast?.milliseconds == ms)
        }
    }

    @Test(arguments: [
        "2026-11-20T10:00:60.000Z", "2026-11-20T24:00:00.000Z", "2026-11-20T10:60:00.000Z",
        "2026-13-20T10:00:00.000Z", "2026-00-20T10:00:00.000Z", "2026-02-29T10:00:00.000Z",
        "1900-02-29T10:00:00.000Z", "2026-04-31T10:00:00.000Z", "2026-11-00T10:00:00.000Z",
        "2026-11-2aT10:00:00.000Z", "2026-11-20T1a:00:00.000Z", "2026-11-20T10:00:00.00aZ",
        "2026/11-20T10:00:00.000Z", "2026-11-20T10:00:00.000z", "2026-11-20t10:00:00.000Z",
        "2026-11-20T10:00:00,000Z", "+026-11-20T10:00:00.000Z", "2026-11-20T10:00:00.0000",
        "2024-02-29T23:59:59.999Z", "2026-11-20T09:59:59.999Z", "9999-12-31T23:59:59.999Z",
    ])
    func parsingAgreesWithTheGeneralParserAfterAWarmCache(text: String) {
        // Warm the day cache with the same date, then with another one.
        for warm in ["2026-11-20T00:00:00.000Z", String(text.prefix(10)) + "T00:00:00.000Z", "2024-02-29T00:00:00.000Z"] {
            var cache = CanonicalTimestampCache()
            _ = Array(warm.utf8).withUnsafeBytes { cache.parse($0) }
            let fast = Array(text.utf8).withUnsafeBytes { cache.parse($0) }
            let general = Timestamp(rfc3339: text)
            // The fast path may decline (nil) a valid form it does not handle, never disagree.
            if let fast { #expect(fast == general, "\(text) after \(warm)") }
            if general == nil { #expect(fast == nil, "\(text) after \(warm)") }
            if text.count == 24, text.hasSuffix("Z"), text.dropFirst(10).hasPrefix("T"), general != nil {
                #expect(fast != nil, "canonical form \(text) not taken by the fast path")
            }
        }
    }

    /// Every byte of a canonical `t`, digits and separators alike, edited
    /// one to three at a time: the fast path declines or agrees.
    @Test func parsingDeclinesOrAgreesOnEditedTimestamps() {
        var random = SeededRandom(seed: 11)
        var cache = CanonicalTimestampCache()
        let base = Array("2026-11-20T11:17:35.671Z".utf8)
        let bytes = Array("0123456789:.-TZ tz/;+".utf8) + [0x00, 0x2F, 0x3A, 0x40, 0x7F, 0x80, 0xFF]
        var declined = 0
        for round in 0..<50_000 {
            var text = base
            for _ in 0...(round % 3) { text[random.int(below: 24)] = random.pick(bytes) }
            let general = text.withUnsafeBytes { Timestamp(rfc3339Bytes: $0) }
            guard let fast = text.withUnsafeBytes({ cache.parse($0) }) else {
                declined += 1
                continue
            }
            #expect(fast == general, "\(String(decoding: text, as: UTF8.self))")
        }
        // Most edits leave no timestamp at all.
        #expect(declined > 25_000)
    }

    /// The kind table finds every kind by its name, and nothing else: the
    /// names edited a byte at a time, cut, lengthened or in another case
    /// are each matched as a plain comparison with every name matches them.
    @Test func kindNamesAreMatchedExactly() {
        func byWords(_ text: [UInt8]) -> KindTag? { text.withUnsafeBytes { KindTag.match(name: $0) } }
        func byBytes(_ text: [UInt8]) -> KindTag? {
            KindTag.allCases.first { $0 != .other && Array("\($0.name)".utf8) == text }
        }
        var random = SeededRandom(seed: 5)
        var edited = 0
        for tag in KindTag.allCases where tag != .other {
            let name = Array("\(tag.name)".utf8)
            #expect(byWords(name) == tag, "\(tag.name)")
            var variants = [Array(name.dropLast()), Array(name.dropFirst()), name + [0x2E], [0x78] + name,
                            Array(String(decoding: name, as: UTF8.self).uppercased().utf8)]
            for _ in 0..<200 {
                var text = name
                text[random.int(below: text.count)] = UInt8(random.int(in: 0x20...0x7E))
                variants.append(text)
            }
            for text in variants {
                #expect(byWords(text) == byBytes(text), "\(String(decoding: text, as: UTF8.self))")
                if byWords(text) != tag { edited += 1 }
            }
        }
        #expect(edited > 3000)
        for text in ["", "a", "abc", "app.foreground", "stack.push.more", "split.visibilityx"] {
            #expect(byWords(Array(text.utf8)) == byBytes(Array(text.utf8)), "\(text)")
        }
    }

    @Test func stringsAreEscapedWhereverTheSpecialByteFalls() {
        let specials: [(Character, String)] = [("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{01}", "\\u0001"), ("\u{1F}", "\\u001f")]
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            var writer = CanonicalWriter()
            writer.writeString(plain)
            #expect(writer.string == "\"\(plain)\"")
            for position in 0...length {
                for (special, escaped) in specials {
                    var s = plain
                    s.insert(special, at: s.index(s.startIndex, offsetBy: position))
                    writer.reset()
                    writer.writeString(s)
                    #expect(writer.string == "\"" + String(plain.prefix(position)) + escaped + String(plain.dropFirst(position)) + "\"")
                }
            }
        }
        // Non-ASCII bytes (≥ 0x80) are kept as they are, in the 8-byte part and the tail.
        var writer = CanonicalWriter()
        writer.writeString("épée—ünïcödé €uro 🍰")
        #expect(writer.string == "\"épée—ünïcödé €uro 🍰\"")
    }

    @Test func generatedEventsRoundTripThroughTheFastPaths() throws {
        // Every kind with its optional fields, from the generator, across several days.
        let generator = SampleGenerator(.init(sessions: 40, seed: 11, eventsPerSession: 50...400, interleave: true))
        var writer = CanonicalWriter()
        var parser = EventLineParser()
        var kinds = Set<String>()
        for event in generator.events() {
            writer.reset()
            writer.write(event)
            let line = writer.bytes
            let parsed = try parser.parse(line)
            #expect(parsed == event)
            var again = CanonicalWriter()
            again.write(parsed)
            #expect(again.bytes == line)
            kinds.insert(event.type)
        }
        #expect(kinds.count >= 15, "kinds seen: \(kinds.sorted())")
    }
}
