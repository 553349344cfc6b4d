import Testing
@testable import NavLogCore

/// `EventLineParser.summarize(_:)` and `fold(_:line:into:)`, the ingest's
/// way past the event: a summary is made only of a line the parser reads,
/// canonical, to an event with the same seq, `t` and session, and folding
/// the summary changes a state exactly as applying that event does —
/// checked state by state over generated sessions, hand-made anomalies and
/// random edits.
@Suite("Canonical line summaries")
struct CanonicalLineSummaryTests {
    /// Two states of a session: one folded from summaries where there are
    /// some, one from events only.
    struct Pair {
        var summarized: NavigationProjector
        var applied: NavigationState
        init(_ session: String) {
            summarized = NavigationProjector(session: session)
            applied = NavigationState(session: session)
        }
    }

    /// Reads `line` both ways, checks that the summary (if any) agrees with
    /// the event, folds both into `pair`, and checks the two states are
    /// equal. Returns whether a summary was made.
    @discardableResult
    static func check(_ line: [UInt8], _ pair: inout Pair, summarizer: inout EventLineParser,
                      parser: inout EventLineParser, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        let event = try? parser.parse(line)
        let summarized = line.withUnsafeBytes { bytes -> Bool in
            guard let summary = summarizer.summarize(bytes) else { return false }
            guard let event else {
                Issue.record("summarized a line the parser refuses: \(text)", sourceLocation: sourceLocation)
                return true
            }
            #expect(parser.lastLineIsCanonical, "summarized a line that is not canonical: \(text)", sourceLocation: sourceLocation)
            #expect(summary.seq == event.seq && summary.seq > 0, "seq: \(text)", sourceLocation: sourceLocation)
            #expect(summary.t == event.t, "t: \(text)", sourceLocation: sourceLocation)
            #expect(Array(bytes[summary.session]) == Array(event.session.utf8), "session: \(text)",
                    sourceLocation: sourceLocation)
            summarizer.fold(summary, line: bytes, into: &pair.summarized)
            return true
        }
        guard let event else { return summarized }
        _ = pair.applied.apply(event)
        if !summarized { _ = pair.summarized.apply(event) }
        #expect(pair.summarized.state == pair.applied, "states part after \(text)", sourceLocation: sourceLocation)
        #expect(pair.summarized.state.checkpointJSON == pair.applied.checkpointJSON, "\(text)", sourceLocation: sourceLocation)
        return summarized
    }

    @Test func generatedSessionsFoldFromSummariesAsFromEvents() {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var pairs: [String: Pair] = [:]
        var made = 0
        var kinds: Set<String> = []
        let lines = CanonicalLineCheckTests.generatedLines()
        for (event, line) in lines {
            var pair = pairs[event.session] ?? Pair(event.session)
            if Self.check(line, &pair, summarizer: &summarizer, parser: &parser) {
                made += 1
                kinds.insert(event.type)
            }
            pairs[event.session] = pair
        }
        // Left to events: state.restore (never canonical).
        #expect(made * 100 >= lines.count * 95, "summarized \(made) of \(lines.count)")
        for kind in ["session.start", "tabs.define", "stack.push", "stack.pop", "stack.popToRoot", "stack.set", "tab.select", "split.select",
                     "modal.present", "modal.dismiss", "url.open", "mark", "session.end"] {
            #expect(kinds.contains(kind), "no summary of \(kind)")
        }
    }

    /// A session through every kind a summary is made of, with every anomaly.
    static let handMadeSession: [String] = [
        #"{"meta":{"a":"x","b":-1.5e3,"c":true,"d":null,"e":false},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"seq":2,"session":"s","sizeClass":"regular","t":"2026-11-20T10:00:00.001Z","type":"layout.change"}"#,
        #"{"seq":2,"session":"s","t":"2026-11-20T10:00:00.001Z","tabs":["home","search","more"],"type":"tabs.define"}"#,
        #"{"app":{"build":"7","version":"1.0"},"device":{"idiom":"pad","os":"iPadOS 18.2"},"seq":2,"session":"s","t":"2026-11-20T10:00:00.001Z","type":"session.start"}"#,
        #"{"seq":3,"session":"s","t":"2026-11-20T10:00:00.002Z","tab":"home","type":"tab.select"}"#,
        #"{"seq":3,"session":"s","t":"2026-11-20T10:00:00.002Z","tabs":[],"type":"tabs.define"}"#,
        #"{"seq":3,"session":"s","t":"2026-11-20T10:00:00.002Z","tabs":["search","home"],"type":"tabs.define"}"#,
        #"{"hidden":true,"seq":4,"session":"s","t":"2026-11-20T10:00:00.003Z","tab":"search","type":"tab.visibility"}"#,
        #"{"seq":5,"session":"s","t":"2026-11-20T10:00:00.004Z","tab":"search","type":"tab.select"}"#,
        #"{"hidden":false,"seq":6,"session":"s","t":"2026-11-20T10:00:00.005Z","tab":"search","type":"tab.visibility"}"#,
        #"{"seq":7,"session":"s","stack":"home","t":"2026-11-20T10:00:00.006Z","type":"stack.push","value":{"id":"a","type":"Recipe"}}"#,
        #"{"seq":8,"session":"s","stack":"home","t":"2026-11-20T10:00:00.007Z","type":"stack.push","value":{"data":{"q":[1,"x",null],"r":{"s":true}},"type":"Settings"}}"#,
        #"{"count":3,"seq":9,"session":"s","stack":"home","t":"2026-11-20T10:00:00.008Z","type":"stack.pop"}"#,
        #"{"path":[{"id":"1","type":"A"},{"data":1,"type":"B"},{"data":"x","id":"2","type":"A"}],"seq":10,"session":"s","stack":"home","t":"2026-11-20T10:00:00.009Z","type":"stack.set"}"#,
        #"{"count":2,"seq":11,"session":"s","stack":"home","t":"2026-11-20T10:00:00.010Z","type":"stack.pop"}"#,
        #"{"seq":12,"session":"s","stack":"home","t":"2026-11-20T10:00:00.011Z","type":"stack.pop"}"#,
        #"{"seq":13,"session":"s","stack":"other","t":"2026-11-20T10:00:00.012Z","type":"stack.popToRoot"}"#,
        #"{"path":[],"seq":14,"session":"s","stack":"home","t":"2026-11-20T10:00:00.013Z","type":"stack.set"}"#,
        #"{"column":"sidebar","selection":[{"id":"x","type":"Folder"}],"seq":15,"session":"s","t":"2026-11-20T10:00:00.014Z","type":"split.select"}"#,
        #"{"column":"detail","selection":[{"id":"x","type":"Mail"},{"id":"y","type":"Mail"}],"seq":16,"session":"s","split":"mail","t":"2026-11-20T10:00:00.015Z","type":"split.select"}"#,
        #"{"seq":17,"session":"s","split":"mail","t":"2026-11-20T10:00:00.016Z","type":"split.visibility","visibility":"detailOnly"}"#,
        #"{"modal":"compose","seq":18,"session":"s","t":"2026-11-20T10:00:00.017Z","type":"modal.present"}"#,
        #"{"modal":"picker","seq":19,"session":"s","style":"popover","t":"2026-11-20T10:00:00.018Z","type":"modal.present"}"#,
        #"{"modal":"compose","seq":20,"session":"s","style":"sheet","t":"2026-11-20T10:00:00.019Z","type":"modal.present"}"#,
        #"{"modal":"nowhere","seq":21,"session":"s","t":"2026-11-20T10:00:00.020Z","type":"modal.dismiss"}"#,
        #"{"seq":22,"session":"s","t":"2026-11-20T10:00:00.021Z","type":"modal.dismiss"}"#,
        #"{"modal":"compose","seq":23,"session":"s","t":"2026-11-20T10:00:00.022Z","type":"modal.dismiss"}"#,
        #"{"seq":24,"session":"s","t":"2026-11-20T10:00:00.023Z","type":"modal.dismiss"}"#,
        #"{"scene":"second","seq":25,"session":"s","t":"2026-11-20T10:00:00.024Z","type":"scene.open"}"#,
        #"{"scene":"second","seq":26,"session":"s","stack":"home","t":"2026-11-20T10:00:00.025Z","type":"stack.push","value":{"id":"b","type":"Recipe"}}"#,
        #"{"cause":26,"scene":"second","seq":27,"session":"s","t":"2026-11-20T10:00:00.026Z","type":"url.open","url":"app://x"}"#,
        #"{"label":"checkpoint","seq":28,"session":"s","t":"2026-11-20T10:00:00.027Z","type":"mark"}"#,
        #"{"seq":29,"session":"s","t":"2026-11-20T10:00:00.028Z","type":"app.background"}"#,
        #"{"scene":"second","seq":30,"session":"s","t":"2026-11-20T10:00:00.029Z","type":"scene.close"}"#,
        #"{"scene":"third","seq":31,"session":"s","stack":"home","t":"2026-11-20T10:00:00.030Z","type":"stack.pop"}"#,
        #"{"seq":32,"session":"s","t":"2026-11-20T10:00:00.031Z","type":"session.end"}"#,
        #"{"seq":33,"session":"s","stack":"home","t":"2026-11-20T10:00:00.032Z","type":"stack.push","value":{"id":"late","type":"Recipe"}}"#,
        #"{"seq":34,"session":"s","t":"2026-11-20T10:00:00.033Z","type":"session.end"}"#,
    ]

    @Test func everyKindAndAnomalyFoldsFromItsSummaryAsFromItsEvent() {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var pair = Pair("s")
        for line in Self.handMadeSession {
            #expect(Self.check(Array(line.utf8), &pair, summarizer: &summarizer, parser: &parser), "no summary of \(line)")
        }
        #expect(pair.applied.anomalies.count == AnomalyKind.allCases.count, "\(pair.applied.anomalies)")
        #expect(pair.summarized.state == pair.applied)
    }

    @Test(arguments: [
        // Left to the event: data the writer would write otherwise, no seq,
        // meta the writer would write otherwise.
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1,"a":2},"type":"R"}}"#,
        #"{"path":[{"data":1.0e,"type":"A"}],"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.set"}"#,
        #"{"path":[{"data":null,"type":"A"}],"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.set"}"#,
        #"{"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.pop"}"#,
        #"{"meta":{"b":1,"a":2},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"label":"x","meta":{"b":1,"a":2},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":1,"a":2},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":01},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":1.},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":tru},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":1,},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a" :1},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":"\u0041"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":[1],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a","\u0062"],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a",""],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a",1],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a" ,"b"],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a",],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":"a","type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tab":"a","tabs":["a"],"type":"tab.select"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"tabs.define"}"#,
        #"{"app":{"version":"1","build":"2"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":["1"],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"device":{"a":1},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"seq":1,"session":"s","state":{"modals":[],"screen":"root","splits":{},"stacks":{},"tabs":{"hidden":[],"order":[],"selected":null}},"t":"2026-11-20T10:00:00.000Z","type":"state.restore"}"#,
        // Members navlog does not know: on a known kind, out of order, or not plain.
        #"{"coldStart":true,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"coldStart":true,"label":"x","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground","coldStart":true}"#,
        #"{"b":1,"a":2,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"a":1,"a":2,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"seq":1,"session":"s","seqs":2,"t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"info":{"a":1},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"info":[1],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"info":"a\"b","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"info":01,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"info":null,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
    ])
    func linesAnEventMustCarryHaveNoSummary(_ line: String) {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var pair = Pair("s")
        #expect(!Self.check(Array(line.utf8), &pair, summarizer: &summarizer, parser: &parser), "summarized: \(line)")
    }

    @Test func metaTheWriterWritesAsReadIsSummarized() {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        for meta in [#"{}"#, #"{"a":1}"#, #"{"a":"x","ab":0,"b":-0.5E+2}"#, #"{"n":{"deep":[1,{"x":null}]}}"#,
                     #"{"A":1,"a":2}"#, #"{"é":1}"#] {
            var pair = Pair("s")
            let line = #"{"label":"x","meta":"# + meta + #","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#
            #expect(Self.check(Array(line.utf8), &pair, summarizer: &summarizer, parser: &parser), "not summarized: \(line)")
        }
    }

    /// Kinds navlog does not know, with members it does not know either.
    static let unknownMemberLines: [String] = [
        #"{"coldStart":true,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.foreground"}"#,
        #"{"a":true,"b":-1.5,"cause":3,"d":"x","scene":"w","seq":4,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.x","z":false}"#,
        #"{"seq":5,"session":"s","sessions":2,"t":"2026-11-20T10:00:00.000Z","type":"app.y","types":"v","u":1}"#,
        #"{"A":1,"seq":6,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"app.z"}"#,
    ]

    @Test func membersNavlogDoesNotKnowAreKeptOnKindsItDoesNotKnow() {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        for line in Self.unknownMemberLines {
            var pair = Pair("s")
            #expect(Self.check(Array(line.utf8), &pair, summarizer: &summarizer, parser: &parser), "not summarized: \(line)")
        }
    }

    @Test func randomEditsAreSummarizedOnlyAsTheParserReadsThem() {
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var edits = RandomLineEdits(seed: 41, alphabet: Array(#" "\{}[],:0123456789-.aeiostxyzTZ"#.utf8)
                                        + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF], repeatingRuns: true)
        var made = 0
        let lines = CanonicalLineCheckTests.generatedLines().prefix(2500).map(\.1)
            + (Self.handMadeSession + Self.unknownMemberLines).map { Array($0.utf8) }
        for (index, line) in lines.enumerated() {
            // The hand-made lines, each many times.
            for _ in 0..<(index < 2500 ? 4 : 200) {
                var pair = Pair("s")
                if Self.check(edits.edit(line), &pair, summarizer: &summarizer, parser: &parser) { made += 1 }
            }
        }
        // Some edits leave a canonical line (a digit for a digit, a letter for a letter).
        #expect(made > 500, "only \(made) edited lines were summarized")
    }
}
