import Foundation
import Testing
import NavLogCore
import NavLogSample
import NavLogTestSupport

/// The same events in any form JSON and RFC 3339 allow give the same
/// answers, read directly or stored: keys in any order at every depth,
/// spaces and tabs around every token, `\uXXXX` escapes (surrogate pairs
/// too) and `\/` in keys, kinds, session ids, names and times, `t` in any
/// offset with `T`/`t`, `Z`/`z` and 0–9 fraction digits, `seq` left out
/// where numbering gives it back, and `null` members. Each reader has a fast
/// path for navlog's own lines (the session skim of the first read, the
/// canonical parser, objects left unbuilt), so each is held here to what the
/// general reading gives.
@Suite struct AnyJSONFormTests {
    /// Canonical lines with names outside ASCII, beside the generated ones.
    static let unicodeSessions = [
        #"{"app":{"build":"1","version":"2.0"},"seq":1,"session":"s-ü/1","t":"2026-11-20T09:59:59.999Z","type":"session.start"}"#,
        #"{"seq":2,"session":"s-ü/1","t":"2026-11-20T10:00:00.000Z","tabs":["home","recherche"],"type":"tabs.define"}"#,
        #"{"seq":3,"session":"s-ü/1","t":"2026-11-20T10:00:00.001Z","tab":"home","type":"tab.select"}"#,
        #"{"seq":4,"session":"s-ü/1","stack":"home","t":"2026-11-20T10:00:01.250Z","type":"stack.push","value":{"id":"frühstück 🍳","type":"Recipe"}}"#,
        #"{"label":"purchase","seq":5,"session":"s-ü/1","t":"2026-11-20T10:00:02.500Z","type":"mark"}"#,
        #"{"seq":6,"session":"s-ü/1","t":"2026-11-20T10:00:03.000Z","tab":"recherche","type":"tab.select"}"#,
    ]

    @Test("the same events in any JSON form give the same answers, read directly and stored")
    func anyFormSameAnswers() throws {
        let dir = try TemporaryDirectory()
        let canonical = dir.file("canonical.ndjson")
        #expect(navlog("generate", "--sessions", "70", "--seed", "23", "--events-per-session", "2-30", "--interleave",
                       "--app-versions", "1.0,2.0", "-o", canonical).status == 0)
        var lines = try String(contentsOfFile: canonical, encoding: .utf8).split(separator: "\n").map(String.init)
        lines += Self.unicodeSessions
        // Every fifth time on a whole second, which may be written without a fraction (`t` need not increase).
        for i in stride(from: 0, to: lines.count, by: 5) {
            lines[i] = lines[i].replacingOccurrences(of: #"\.[0-9]{3}Z""#, with: #".000Z""#, options: .regularExpression)
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: canonical, atomically: false, encoding: .utf8)

        var form = AnyForm(seed: 41)
        let rewritten = try form.rewrite(lines)
        let other = dir.file("other.ndjson")
        try (rewritten.joined(separator: "\n") + "\n").write(toFile: other, atomically: false, encoding: .utf8)
        // The forms are there: each at least 10 times.
        for form in [#"\\u[0-9a-f]{4}"#, #"\\u[0-9A-F]{4}"#, #"\\/"#, "\t", #"\+05:45""#, #"z""#, #"[0-9]t[0-9]"#,
                     #"\.[0-9]{9}"#, #":[0-9]{2}[+Zz-]"#, "null"] {
            #expect(rewritten.count { $0.range(of: form, options: .regularExpression) != nil } >= 10, "\(form)")
        }
        #expect(form.seqsLeftOut >= 50)

        let questions: [[String]] = [
            ["export", "events", "SOURCE", "--format", "ndjson"],
            ["export", "screens", "SOURCE", "--with-marks"],
            ["funnel", "SOURCE", "--by", "app.version", "--step", "tab:*", "--step", "Recipe/*", "--step", "mark:purchase", "--format", "csv"],
            ["paths", "SOURCE", "--top", "30", "--format", "csv"],
        ]
        func answers(_ source: String) -> [String] {
            questions.map { question in
                let r = navlog(question.map { $0 == "SOURCE" ? source : $0 })
                #expect(r.status == 0 && r.stderr.isEmpty, "\(question) over \(source): \(r.stderr)")
                return r.stdout
            }
        }
        let expected = answers(canonical)
        #expect(expected[1].contains("frühstück 🍳") && expected[2].contains("2.0"))
        #expect(answers(other) == expected)

        var stores: [String] = []
        for (name, input) in [("from-canonical", canonical), ("from-other", other)] {
            let store = dir.file(name)
            let r = navlog("ingest", input, "--store", store, "--json")
            #expect(r.status == 0 && r.stdout.contains("\"rejected\":0"), "\(r.stdout) \(r.stderr)")
            stores.append(store)
        }
        let stored = answers(stores[0])
        #expect(answers(stores[1]) == stored)
        // A store lists its sessions in another order; its funnel and paths are the file's.
        #expect(stored[2...] == expected[2...])
        #expect(navlog("sessions", stores[1]).stdout == navlog("sessions", stores[0]).stdout)
        // Either form, ingested again into the other's store, is already there.
        for (input, store) in [(canonical, stores[1]), (other, stores[0])] {
            let again = navlog("ingest", input, "--store", store, "--json")
            #expect(again.status == 0 && again.stdout.contains("\"stored\":0") && again.stdout.contains("\"duplicates\":\(lines.count)"),
                    "\(again.stdout) \(again.stderr)")
        }
    }
}

/// Writes JSON values in a random form that reads as the same value.
struct AnyForm {
    var random: SeededRandom
    /// The last seq written for each session (to leave out only a seq numbering gives back).
    var lastSeq: [String: Int] = [:]
    /// How many lines were written without their seq.
    var seqsLeftOut = 0

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func rewrite(_ lines: [String]) throws -> [String] {
        try lines.map { line in
            guard case .object(var members) = try JSONValue.parse(line),
                  case .string(let session)? = members["session"], case .number(let digits)? = members["seq"], let seq = Int(digits),
                  case .string(let t)? = members["t"], let time = Timestamp(rfc3339: t)
            else { throw ProducerStyleIngestTests.Problem("not a canonical event line: \(line)") }
            if lastSeq[session] == seq - 1, random.percent(30) {
                members["seq"] = nil
                seqsLeftOut += 1
            }
            lastSeq[session] = seq
            members["t"] = .string(timeText(time))
            if random.percent(10) { members["zz-unset"] = JSONValue.null }
            return space() + write(.object(members)) + space()
        }
    }

    /// Nothing, spaces or tabs.
    mutating func space() -> String { random.pick(["", "", "", " ", "  ", "\t", " \t "]) }

    mutating func write(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            var keys = members.keys.sorted()  // from one order (a dictionary's differs from run to run)
            keys.shuffle(using: &random)
            if keys.isEmpty { return "{" + space() + "}" }
            var parts: [String] = []
            for key in keys {
                parts.append(space() + string(key) + space() + ":" + space() + write(members[key]!) + space())
            }
            return "{" + parts.joined(separator: ",") + "}"
        case .array(let elements):
            if elements.isEmpty { return "[" + space() + "]" }
            var parts: [String] = []
            for element in elements { parts.append(space() + write(element) + space()) }
            return "[" + parts.joined(separator: ",") + "]"
        case .string(let s):
            return string(s)
        default:
            return value.canonicalText
        }
    }

    /// A JSON string, some of its characters escaped.
    mutating func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += #"\""#
            case "\\": out += #"\\"#
            case "/" where random.percent(60): out += #"\/"#
            case _ where scalar.value < 0x20: out += String(format: #"\u%04x"#, scalar.value)
            case _ where random.percent(8):
                let format = random.percent(50) ? #"\u%04x"# : #"\u%04X"#
                if scalar.value > 0xFFFF {
                    let v = scalar.value - 0x10000
                    out += String(format: format, 0xD800 + (v >> 10)) + String(format: format, 0xDC00 + (v & 0x3FF))
                } else {
                    out += String(format: format, scalar.value)
                }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `time` in RFC 3339 at some offset, with `T` or `t`, 0–9 fraction
    /// digits (any beyond the milliseconds, which navlog drops), `Z` or `z`.
    mutating func timeText(_ time: Timestamp) -> String {
        let offset = random.pick([0, 0, 120, -300, -330, 345, 840, -720])
        // The local time, printed as if UTC, then given its offset.
        var local = Array(Timestamp(milliseconds: time.milliseconds + Int64(offset) * 60_000).rfc3339)
        local.removeLast()  // Z
        if random.percent(50) { local[10] = "t" }
        let milliseconds = String(local.suffix(3))
        local.removeLast(4)  // .mmm
        var fraction = milliseconds
        switch random.int(below: 4) {
        case 0 where milliseconds == "000", 1 where milliseconds == "000": fraction = ""
        case 1: fraction = milliseconds + String((0..<random.int(in: 1...6)).map { _ in random.pick(Array("0123456789")) })
        case 2: while fraction.hasSuffix("0") { fraction.removeLast() }
        default: break
        }
        var text = String(local) + (fraction.isEmpty ? "" : "." + fraction)
        if offset == 0, random.percent(70) {
            text += random.pick(["Z", "z"])
        } else {
            text += (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60)
        }
        return text
    }
}
