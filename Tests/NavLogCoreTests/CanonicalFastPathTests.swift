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

    /// A mark line at `t` (bytes written as they are, between the quotes).
    static func line(t: [UInt8]) -> [UInt8] {
        Array(#"{"label":"x","seq":1,"session":"s-1","t":""#.utf8) + t + Array(#"","type":"mark"}"#.utf8)
    }

    /// One parser reads a canonical `t` after another (warm and cold day
    /// cache alike) to the instant it spells.
    @Test func parsingCanonicalTimestampsMatchesTheGeneralParser() throws {
        var parser = EventLineParser()
        for ms in Self.instants() {
            let text = Timestamp(milliseconds: ms).rfc3339
            let event = try parser.parse(Self.line(t: Array(text.utf8)))
            #expect(event.t == Timestamp(rfc3339: text), "\(text)")
            #expect(event.t.milliseconds == ms)
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
        // A line with the same date first, then with another one.
        for warm in ["2026-11-20T00:00:00.000Z", String(text.prefix(10)) + "T00:00:00.000Z", "2024-02-29T00:00:00.000Z"] {
            var parser = EventLineParser()
            _ = try? parser.parse(Self.line(t: Array(warm.utf8)))
            let parsed = try? parser.parse(Self.line(t: Array(text.utf8)))
            #expect(parsed?.t == Timestamp(rfc3339: text), "\(text) after \(warm)")
        }
    }

    /// Every byte of a canonical `t`, digits and separators alike, edited
    /// one to three at a time: the line is accepted exactly when the
    /// timestamp is one, at that instant, and otherwise rejected for its `t`.
    @Test func parsingDeclinesOrAgreesOnEditedTimestamps() {
        var random = SeededRandom(seed: 11)
        var parser = EventLineParser()
        let base = Array("2026-11-20T11:17:35.671Z".utf8)
        let bytes = Array("0123456789:.-TZ tz/;+".utf8) + [0x00, 0x2F, 0x3A, 0x40, 0x7F, 0x80, 0xFF]
        var rejected = 0
        for round in 0..<50_000 {
            var text = base
            for _ in 0...(round % 3) { text[random.int(below: 24)] = random.pick(bytes) }
            let general = text.withUnsafeBytes { Timestamp(rfc3339Bytes: $0) }
            do {
                let event = try parser.parse(Self.line(t: text))
                #expect(event.t == general, "\(String(decoding: text, as: UTF8.self))")
            } catch {
                #expect(general == nil, "\(String(decoding: text, as: UTF8.self)): \(error)")
                rejected += 1
            }
        }
        // Most edits leave no timestamp at all.
        #expect(rejected > 25_000)
    }

    /// The kinds' names, and only they, give their kinds: every name edited
    /// a byte at a time (printable bytes, quotes and backslashes escaped),
    /// cut, lengthened, in another case or written with an escape. A line
    /// of a known kind without its fields is rejected for a missing one;
    /// any other name is a kind navlog does not know, kept as written.
    @Test func kindNamesAreMatchedExactly() {
        let known = ["session.start", "session.end", "scene.open", "scene.close", "tabs.define", "tab.select",
                     "tab.visibility", "stack.push", "stack.pop", "stack.popToRoot", "stack.set", "split.select",
                     "split.visibility", "modal.present", "modal.dismiss", "url.open", "state.restore",
                     "layout.change", "mark"]
        var parser = EventLineParser()
        func check(_ text: String, typeJSON: String? = nil) -> Bool {
            var written = CanonicalWriter()
            written.writeString(text)
            let line = #"{"seq":1,"session":"s-1","t":"2026-11-20T10:00:00.000Z","type":"# + (typeJSON ?? written.string) + "}"
            do {
                let event = try parser.parse(Array(line.utf8))
                #expect(event.type == text, "\(line)")
                #expect((event.kind == .other(type: text)) == !known.contains(text), "\(line)")
                return known.contains(text)
            } catch {
                if case .missingField = error { #expect(known.contains(text), "\(line)") } else {
                    #expect(text.isEmpty && error == .invalidValue(field: "type", reason: "must not be empty"), "\(line): \(error)")
                }
                return true
            }
        }
        var random = SeededRandom(seed: 5)
        var edited = 0
        for name in known {
            #expect(check(name))
            let first = String(name.unicodeScalars.first!.value, radix: 16)
            #expect(check(name, typeJSON: "\"\\u00\(first)\(name.dropFirst())\""))
            var variants = [String(name.dropLast()), String(name.dropFirst()), name + ".", "x" + name, name.uppercased()]
            for _ in 0..<200 {
                var text = Array(name.utf8)
                text[random.int(below: text.count)] = UInt8(random.int(in: 0x20...0x7E))
                variants.append(String(decoding: text, as: UTF8.self))
            }
            for text in variants where !check(text) { edited += 1 }
        }
        #expect(edited > 3000)
        for text in ["", "a", "abc", "app.foreground", "stack.push.more", "split.visibilityx"] { _ = check(text) }
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
