import Foundation
import Testing
import NavLogTestSupport

/// `navlog export screens|events` through the real binary.
@Suite struct ExportCommandTests {
    @Test func screensAreTheContractsColumnsFromAStoreOrNDJSON() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        _ = dir
        let expected = """
            session,seq,t,scene,screen
            s-a,2,2026-11-20T10:00:01.000Z,main,Home
            s-a,3,2026-11-20T10:00:03.000Z,main,Recipe/pie
            s-b,2,2026-11-20T10:00:01.500Z,main,Recipe/tart
            s-c,1,2026-11-20T10:05:00.000Z,main,Home

            """
        let fromStore = navlog("export", "screens", store)
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        #expect(fromStore.stdout == expected)
        // NDJSON rows come in input order (the sessions are interleaved there).
        let fromNDJSON = navlog("export", "screens", ndjson)
        #expect(fromNDJSON.stdout.split(separator: "\n").sorted() == expected.split(separator: "\n").sorted())
        let lines = navlog("export", "screens", store, "--format", "ndjson").stdout.split(separator: "\n")
        #expect(lines.first == #"{"scene":"main","screen":"Home","seq":2,"session":"s-a","t":"2026-11-20T10:00:01.000Z"}"#)
        #expect(lines.count == 4)
    }

    @Test func withMarksAddsMarksLinksAndSessions() throws {
        let (dir, _, store) = try FunnelCommandTests.inputs()
        _ = dir
        let r = navlog("export", "screens", store, "--with-marks")
        #expect(r.stdout == """
            session,seq,t,scene,screen,kind
            s-a,1,2026-11-20T10:00:00.000Z,,,session
            s-a,1,2026-11-20T10:00:00.000Z,main,"{""app"":{""version"":""1.0""},""device"":{""idiom"":""phone""},""seq"":1,""session"":""s-a"",""t"":""2026-11-20T10:00:00.000Z"",""type"":""session.start""}",start
            s-a,2,2026-11-20T10:00:01.000Z,main,Home,screen
            s-a,3,2026-11-20T10:00:03.000Z,main,Recipe/pie,screen
            s-a,4,2026-11-20T10:00:04.000Z,main,purchase,mark
            s-b,1,2026-11-20T10:00:00.500Z,,,session
            s-b,1,2026-11-20T10:00:00.500Z,main,"{""app"":{""version"":""2.0""},""seq"":1,""session"":""s-b"",""t"":""2026-11-20T10:00:00.500Z"",""type"":""session.start""}",start
            s-b,2,2026-11-20T10:00:01.500Z,main,Recipe/tart,screen
            s-b,3,2026-11-20T10:00:20.500Z,main,purchase,mark
            s-c,1,2026-11-20T10:05:00.000Z,,,session
            s-c,1,2026-11-20T10:05:00.000Z,main,Home,screen

            """)
    }

    @Test func fieldsAreQuotedPerRFC4180() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("q.ndjson", #"{"session":"s,1","t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"main","value":{"type":"Say","id":"a \"b\",\nc"}}"# + "\n")
        let r = navlog("export", "screens", input)
        #expect(r.stdout == "session,seq,t,scene,screen\n\"s,1\",1,2026-11-20T10:00:00.000Z,main,\"Say/a \"\"b\"\",\nc\"\n")
    }

    @Test func eventsAsNDJSONAreTheCanonicalLines() throws {
        let (dir, _, store) = try FunnelCommandTests.inputs()
        _ = dir
        let r = navlog("export", "events", store, "--format", "ndjson")
        var cat = ""
        for id in ["s-a", "s-b", "s-c"] { cat += navlog("cat", "\(store)/\(v1Log(id))").stdout }
        #expect(r.status == 0)
        #expect(r.stdout == cat)
    }

    @Test func eventsAsCSVSayWhatEachDid() throws {
        let (dir, _, store) = try FunnelCommandTests.inputs()
        _ = dir
        let rows = navlog("export", "events", store).stdout.split(separator: "\n").map(String.init)
        #expect(rows.first == "session,seq,t,scene,type,cause,container,value,screen,json")
        #expect(rows.count == 9)
        #expect(rows[3] == #"s-a,3,2026-11-20T10:00:03.000Z,main,stack.push,,main,Recipe/pie,Recipe/pie,"{""seq"":3,""session"":""s-a"",""stack"":""main"",""t"":""2026-11-20T10:00:03.000Z"",""type"":""stack.push"",""value"":{""id"":""pie"",""type"":""Recipe""}}""#)
        #expect(rows[4].hasPrefix("s-a,4,2026-11-20T10:00:04.000Z,main,mark,,,purchase,,"))
    }

    @Test func redactionHashesIdsWithTheKeyAndDropsPayloads() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("r.ndjson", """
            {"session":"s","t":"2026-11-20T10:00:00Z","type":"session.start","app":{"version":"1"},"meta":{"user":"ann@example.com"}}
            {"session":"s","t":"2026-11-20T10:00:01Z","type":"stack.push","stack":"main","value":{"type":"Order","id":"A-1234","data":{"card":"4242"}}}

            """)
        let a = navlog("export", "events", input, "--format", "ndjson", "--redact", "--redact-key", "one")
        let b = navlog("export", "events", input, "--format", "ndjson", "--redact", environment: ["NAVLOG_REDACT_KEY": "one"])
        let c = navlog("export", "events", input, "--format", "ndjson", "--redact", "--redact-key", "two")
        #expect(a.status == 0 && b.status == 0 && c.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout != c.stdout)
        for secret in ["ann@example.com", "A-1234", "4242", "meta", "data"] { #expect(!a.stdout.contains(secret)) }
        #expect(a.stdout.contains(#""app":{"version":"1"}"#))
        let screens = navlog("export", "screens", input, "--redact", "--redact-key", "one").stdout
        #expect(screens.contains(",main,Order/h-") && !screens.contains("A-1234"))
        let noKey = navlog("export", "events", input, "--redact", environment: ["NAVLOG_REDACT_KEY": ""])
        #expect(noKey.status == 2)
        #expect(noKey.stderr.contains("--redact-key"))
    }

    @Test func badInputsAreExit2() throws {
        let dir = try TemporaryDirectory()
        #expect(navlog("export", "screens", dir.file("missing")).status == 2)
        #expect(navlog("export", "screens", dir.url.path, "--format", "xml").status == 2)
        // An empty store exports just the header; an empty directory is no store.
        let empty = navlog("export", "screens", dir.url.path)
        #expect(empty.status == 2 && empty.stderr.contains("not a store"), "\(empty.stderr)")
        #expect(navlog("ingest", try dir.file("nothing.ndjson", ""), "--store", dir.file("store")).status == 0)
        #expect(navlog("export", "screens", dir.file("store")).stdout == "session,seq,t,scene,screen\n")
    }
}

/// Export over many logs runs on two threads; the output is still in input order and stops at damage.
@Suite struct ExportOrderTests {
    @Test func manyLogsComeOutInOrderAndDamageStopsTheOutput() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "40", "--seed", "5", "--events-per-session", "30")
        #expect(generated.status == 0)
        var bySession: [String: [Substring]] = [:]
        var order: [String] = []
        for line in generated.stdout.split(separator: "\n") {
            let id = String(line.split(separator: "\"session\":\"")[1].prefix { $0 != "\"" })
            if bySession[id] == nil { order.append(id) }
            bySession[id, default: []].append(line)
        }
        let store = dir.file("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        for id in order {
            let r = navlog("append", "\(store)/\(v1Log(id))", stdin: bySession[id]!.joined(separator: "\n") + "\n")
            #expect(r.status == 0, "\(r.stderr)")
        }
        let all = navlog("export", "events", store, "--format", "ndjson")
        #expect(all.status == 0)
        #expect(all.stdout == generated.stdout)  // generated one session after another, sorted ids

        // Damage the 21st log in the middle of its data: the first 20 sessions come out, nothing after the 21st.
        let victim = "\(store)/\(v1Log(order[20]))"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: victim)))
        for i in (bytes.count / 2)..<(bytes.count / 2 + 16) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: victim))
        let damaged = navlog("export", "events", store, "--format", "ndjson")
        #expect(damaged.status == 1, "\(damaged.stderr)")
        #expect(damaged.stderr.contains(order[20]))
        let firstTwenty = order.prefix(20).map { bySession[$0]!.joined(separator: "\n") + "\n" }.joined()
        #expect(damaged.stdout.hasPrefix(firstTwenty))
        #expect(generated.stdout.hasPrefix(damaged.stdout))
        #expect(!damaged.stdout.contains(order[21]))
    }
}
