import Testing
@testable import NavLogCore

/// `CanonicalLineParser`, the parser's fast path: whatever line it reads, the
/// general parser reads to the same event and calls canonical; it reads the
/// canonical lines of the kinds it knows; and a parser with it answers every
/// line — event or error — exactly as one without it.
@Suite("Canonical line fast path")
struct CanonicalLineParserTests {
    /// The fast path's answer for `line`, checked against the general parser.
    @discardableResult
    static func compare(_ line: [UInt8], storage: LineParserStorage, sourceLocation: SourceLocation = #_sourceLocation) -> Event? {
        let fast = line.withUnsafeBytes { try? CanonicalLineParser.parse($0, storage: storage) }
        var general = EventLineParser(checkingCanonicalForm: true, usingFastPath: false)
        let text = String(decoding: line, as: UTF8.self)
        let expected = Result { () throws(EventParseError) in try general.parse(line) }
        if let fast {
            switch expected {
            case .success(let event):
                #expect(fast == event, "fast path differs on \(text)", sourceLocation: sourceLocation)
                #expect(general.lastLineIsCanonical, "fast path read a line that is not canonical: \(text)",
                        sourceLocation: sourceLocation)
            case .failure(let error):
                Issue.record("fast path read a line the parser refuses (\(error)): \(text)", sourceLocation: sourceLocation)
            }
        }
        // With the fast path in front, the parser answers exactly as before.
        var full = EventLineParser(checkingCanonicalForm: true)
        let answer = Result { () throws(EventParseError) in try full.parse(line) }
        switch (answer, expected) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
            #expect(full.lastLineIsCanonical == general.lastLineIsCanonical, "\(text)", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a.description == b.description, "\(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("the parser's answer changed with the fast path: \(text)", sourceLocation: sourceLocation)
        }
        return fast
    }

    /// The canonical lines of generated sessions (the canonical check's own).
    static func canonicalLines() -> [(Event, [UInt8])] { CanonicalLineCheckTests.generatedLines() }

    @Test func generatedCanonicalLinesAreReadAsTheGeneralParserReadsThem() {
        let storage = LineParserStorage(checkingCanonicalForm: true)
        var read = 0
        let lines = Self.canonicalLines()
        var kinds: Set<String> = []
        for (event, line) in lines {
            if let fast = Self.compare(line, storage: storage) {
                #expect(fast == event)
                read += 1
                kinds.insert(fast.type)
            }
        }
        // Only state.restore, tabs.customize and tabs.define with sections
        // are left to the general parser.
        #expect(read * 100 >= lines.count * 97, "read \(read) of \(lines.count)")
        for kind in ["session.start", "tabs.define", "stack.push", "stack.pop", "tab.select", "split.select", "stack.set", "modal.present",
                     "modal.dismiss", "stack.popToRoot", "mark", "layout.change", "url.open"] {
            #expect(kinds.contains(kind), "no \(kind) line was read")
        }
    }

    @Test(arguments: [
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"seq":2,"session":"s","t":"2026-11-20T10:00:00.001Z","type":"session.end"}"#,
        #"{"scene":"w2","seq":3,"session":"s","t":"2026-11-20T10:00:00.002Z","type":"scene.open"}"#,
        #"{"scene":"w2","seq":4,"session":"s","t":"2026-11-20T10:00:00.003Z","type":"scene.close"}"#,
        #"{"seq":5,"session":"s","stack":"home","t":"2026-11-20T10:00:00.004Z","type":"stack.push","value":{"type":"Home"}}"#,
        #"{"cause":0,"seq":6,"session":"s","stack":"home","t":"2026-11-20T10:00:00.005Z","type":"stack.push","value":{"id":"7","type":"R"}}"#,
        #"{"count":3,"seq":7,"session":"s","stack":"home","t":"2026-11-20T10:00:00.006Z","type":"stack.pop"}"#,
        #"{"seq":8,"session":"s","stack":"home","t":"2026-11-20T10:00:00.007Z","type":"stack.pop"}"#,
        #"{"seq":9,"session":"s","stack":"home","t":"2026-11-20T10:00:00.008Z","type":"stack.popToRoot"}"#,
        #"{"path":[],"seq":10,"session":"s","stack":"home","t":"2026-11-20T10:00:00.009Z","type":"stack.set"}"#,
        #"{"path":[{"id":"a","type":"A"},{"type":"B"}],"seq":11,"session":"s","stack":"h","t":"2026-11-20T10:00:00.010Z","type":"stack.set"}"#,
        #"{"column":"detail","selection":[{"id":"x","type":"X"}],"seq":12,"session":"s","split":"main","t":"2026-11-20T10:00:00.011Z","type":"split.select"}"#,
        #"{"column":"sidebar","selection":[],"seq":13,"session":"s","t":"2026-11-20T10:00:00.012Z","type":"split.select"}"#,
        #"{"seq":14,"session":"s","split":"main","t":"2026-11-20T10:00:00.013Z","type":"split.visibility","visibility":"detailOnly"}"#,
        #"{"modal":"settings","seq":15,"session":"s","style":"fullScreenCover","t":"2026-11-20T10:00:00.014Z","type":"modal.present"}"#,
        #"{"modal":"settings","seq":16,"session":"s","t":"2026-11-20T10:00:00.015Z","type":"modal.present"}"#,
        #"{"seq":17,"session":"s","t":"2026-11-20T10:00:00.016Z","type":"modal.dismiss"}"#,
        #"{"modal":"settings","seq":18,"session":"s","t":"2026-11-20T10:00:00.017Z","type":"modal.dismiss"}"#,
        #"{"seq":19,"session":"s","t":"2026-11-20T10:00:00.018Z","tab":"search","type":"tab.select"}"#,
        #"{"hidden":true,"seq":20,"session":"s","t":"2026-11-20T10:00:00.019Z","tab":"search","type":"tab.visibility"}"#,
        #"{"hidden":false,"seq":21,"session":"s","t":"2026-11-20T10:00:00.020Z","tab":"search","type":"tab.visibility"}"#,
        #"{"seq":22,"session":"s","t":"2026-11-20T10:00:00.021Z","type":"url.open","url":"recipes://x/y?z=1"}"#,
        #"{"label":"purchase","seq":23,"session":"s","t":"2026-11-20T10:00:00.022Z","type":"mark"}"#,
        #"{"seq":24,"session":"s","sizeClass":"regular","t":"2026-11-20T10:00:00.023Z","type":"layout.change"}"#,
        #"{"seq":25,"session":"s","t":"2026-11-20T10:00:00.024Z","type":"app.background"}"#,
        #"{"label":"x","meta":{"a":1,"b":"c","d":[true,null],"e":{"f":-2.5}},"seq":26,"session":"s","t":"2026-11-20T10:00:00.025Z","type":"mark"}"#,
        #"{"meta":{},"seq":27,"session":"s","t":"2026-11-20T10:00:00.026Z","type":"session.end"}"#,
        // Numbers in meta are kept as written, so this is canonical too.
        #"{"label":"x","meta":{"a":1.50},"seq":28,"session":"s","t":"2026-11-20T10:00:00.027Z","type":"mark"}"#,
        // Route data written as the writer writes it, numbers as written.
        #"{"seq":29,"session":"s","stack":"h","t":"2026-11-20T10:00:00.028Z","type":"stack.push","value":{"data":{"q":1,"r":[true,null,"x"]},"id":"a","type":"R"}}"#,
        #"{"seq":30,"session":"s","stack":"h","t":"2026-11-20T10:00:00.029Z","type":"stack.push","value":{"data":2.50,"type":"R"}}"#,
        #"{"seq":31,"session":"s","stack":"h","t":"2026-11-20T10:00:00.030Z","type":"stack.push","value":{"data":"caf\\u00e9","type":"R"}}"#,
        #"{"path":[{"data":{},"id":"a","type":"A"},{"data":[],"type":"B"}],"seq":32,"session":"s","stack":"h","t":"2026-11-20T10:00:00.031Z","type":"stack.set"}"#,
        #"{"column":"detail","selection":[{"data":{"n":-1},"id":"x","type":"X"}],"seq":33,"session":"s","t":"2026-11-20T10:00:00.032Z","type":"split.select"}"#,
        #"{"cause":24,"label":"x","scene":"main","seq":123456789012345678,"session":"a-very-long-session-identifier-0001","t":"9999-12-31T23:59:59.999Z","type":"mark"}"#,
        // session.start's objects, read as meta is; tabs.define without sections.
        #"{"app":{"build":"2108","version":"3.2.0"},"device":{"idiom":"pad","model":"iPad13,18","os":"iPadOS 17.6"},"meta":{"locale":"en_GB"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.572Z","type":"session.start"}"#,
        #"{"app":{"v":"1"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":{},"device":{"a":1,"b":true,"c":null,"d":[1,"x"],"e":{"f":"g"}},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"seq":3,"session":"s","t":"2026-11-20T10:00:00.592Z","tabs":["home","browse","search"],"type":"tabs.define"}"#,
        #"{"searchTab":"search","seq":3,"session":"s","t":"2026-11-20T10:00:00.592Z","tabs":["home","search"],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a","b"],"type":"tabs.define"}"#,
    ])
    func canonicalLinesOfEveryKnownLayoutAreRead(_ line: String) {
        let storage = LineParserStorage(checkingCanonicalForm: true)
        #expect(Self.compare(Array(line.utf8), storage: storage) != nil, "not read: \(line)")
    }

    @Test(arguments: [
        #"{"meta":{"a":1},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"label":"x","meta":{"b":1,"a":2},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a": 1},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":1,"a":2},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":{"a":[[[[[[[[[1]]]]]]]]]},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":[1],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","meta":null,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":null,"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1}}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"r":1,"q":2},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data": {"q":1},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1} ,"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":"\u0041"},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":[[[[[[[[[1]]]]]]]]],"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"a","data":{"q":1},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1},"data":{"q":1},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1},"id":5,"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1,},"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"q":1},"type":"R","id":"a"}}"#,
        #"{"path":[{"data":{"b":1,"a":2},"type":"A"}],"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.set"}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":5,"type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"","type":"R"}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"type":""}}"#,
        #"{"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"type":"R","id":"a"}}"#,
        #"{"seq":1,"session":"s","stack":"","t":"2026-11-20T10:00:00.000Z","type":"stack.pop"}"#,
        #"{"session":"s","seq":1,"t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"seq":2,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1, "session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #" {"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"} "#,
        #"{"seq":01,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":0,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":-1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1.0,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1234567890123456789,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s\u0041","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-02-30T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000+00:00","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":""}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end","x":1}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end","url":"u"}"#,
        #"{"app":{"v":"1","a":"2"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":{"v": "1"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":{"v":"1","v":"2"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":["v"],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"app":{"v":"1"},"label":"x","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"sections":[{"name":"a","tabs":["a"]}],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a"],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a",""],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a","b",],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":["a", "b"],"type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tabs":"a","type":"tabs.define"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"tabs.define"}"#,
        #"{"count":0,"seq":1,"session":"s","stack":"h","t":"2026-11-20T10:00:00.000Z","type":"stack.pop"}"#,
        #"{"count":1,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"stack.pop"}"#,
        #"{"modal":"m","seq":1,"session":"s","style":"card","t":"2026-11-20T10:00:00.000Z","type":"modal.present"}"#,
        #"{"column":"middle","selection":[],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"split.select"}"#,
        #"{"column":"detail","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"split.select"}"#,
        #"{"hidden":1,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","tab":"a","type":"tab.visibility"}"#,
        #"{"scene":null,"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"café","t":"2026-11-20T10:00:00.000Z","type":"session.end"}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end""#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end",}"#,
        #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.end"}x"#,
        #"{"label":"a\tb","seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{}"#,
        #"{"#,
        #"}"#,
    ])
    func linesOutsideTheLayoutAreLeftToTheGeneralParser(_ line: String) {
        let storage = LineParserStorage(checkingCanonicalForm: true)
        #expect(Self.compare(Array(line.utf8), storage: storage) == nil, "read: \(line)")
    }

    /// A parser for a reader that never looks at `session.start`'s objects
    /// nor at `meta` leaves a canonical line's out, and accepts and refuses
    /// what any parser does.
    @Test func sessionStartObjectsCanBeCheckedWithoutBeingKept() {
        let lines = [
            #"{"app":{"build":"2108","version":"3.2.0"},"device":{"model":"iPad13,18"},"meta":{"a":"b"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.572Z","type":"session.start"}"#,
            #"{"app":{"v":"1","a":"2"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
            #"{"app":{"v":"1","v":"2"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
            #"{"app":{"v":"1"},"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start","x":1}"#,
            #"{"app":["v"],"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        ]
        for line in lines {
            var skipping = EventLineParser(keepingObjects: false)
            var keeping = EventLineParser()
            let skipped = Result { () throws(EventParseError) in try skipping.parse(Array(line.utf8)) }
            let kept = Result { () throws(EventParseError) in try keeping.parse(Array(line.utf8)) }
            switch (skipped, kept) {
            case (.success(let a), .success(var b)):
                if a.kind == .sessionStart(app: nil, device: nil) {
                    b.kind = .sessionStart(app: nil, device: nil)
                    b.meta = nil
                }
                #expect(a == b, "\(line)")
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description, "\(line)")
            default:
                Issue.record("accepted by one parser only: \(line)")
            }
        }
        var skipping = EventLineParser(keepingObjects: false)
        let event = try? skipping.parse(Array(lines[0].utf8))
        #expect(event?.kind == .sessionStart(app: nil, device: nil))
        #expect(event?.meta == nil)
        // A mark's meta too: the reader looks at no event's.
        let mark = try? skipping.parse(Array(#"{"label":"x","meta":{"a":"b"},"seq":2,"session":"s","t":"2026-11-20T10:00:01.000Z","type":"mark"}"#.utf8))
        #expect(mark?.kind == .mark(label: "x") && mark?.meta == nil)
    }

    /// Whether the fast path of a parser that leaves `state.restore`'s
    /// object out read `line`; records an issue when its answer, or that
    /// of an ``EventLineParser`` made so, is not the general parser's
    /// (the object aside).
    @discardableResult
    static func readWithoutRestoredObject(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let storage = LineParserStorage(checkingCanonicalForm: false)
        storage.keepsRestoredJSON = false
        let fast = line.withUnsafeBytes { try? CanonicalLineParser.parse($0, storage: storage) }
        var general = EventLineParser(checkingCanonicalForm: false, usingFastPath: false)
        var skipping = EventLineParser(keepingObjects: true, keepingRestoredJSON: false)
        let text = String(decoding: line, as: UTF8.self)
        func withoutObject(_ event: Event) -> Event {
            var event = event
            if case .stateRestore(let state, _) = event.kind { event.kind = .stateRestore(state: state, json: [:]) }
            return event
        }
        let expected = Result { () throws(EventParseError) in try general.parse(line) }.map(withoutObject)
        // Its event has the scene and no object, whichever of its parsers read the line.
        let answer = Result { () throws(EventParseError) in try skipping.parse(line) }
        switch (answer, expected) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
            if let fast { #expect(fast == b, "fast path differs on \(text)", sourceLocation: sourceLocation) }
        case (.failure(let a), .failure(let b)):
            #expect(a.description == b.description, "\(text)", sourceLocation: sourceLocation)
            #expect(fast == nil, "fast path read a line the parser refuses: \(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("accepted by one parser only: \(text)", sourceLocation: sourceLocation)
        }
        return fast != nil
    }

    /// A parser for a reader that never writes `state.restore`'s object
    /// again (funnels, paths) reads restores in the layout the fast path
    /// checks to the scene the general parser builds, and accepts and
    /// refuses what any parser does.
    @Test func restoredScenesAreBuiltWithoutTheirObject() {
        let generated = RestoredStateKeyTests.generatedLines().filter { $0.0.type == "state.restore" }.map(\.1)
        #expect(generated.count > 5)
        for line in generated + RestoredStateKeyTests.checkedStates.map(RestoredStateKeyTests.line) {
            #expect(Self.readWithoutRestoredObject(line), "not read: \(String(decoding: line, as: UTF8.self))")
        }
        for line in RestoredStateKeyTests.otherStates.map(RestoredStateKeyTests.line) {
            #expect(!Self.readWithoutRestoredObject(line), "read: \(String(decoding: line, as: UTF8.self))")
        }
        var edits = RandomLineEdits(seed: 11, alphabet: Array(#" "\{}[],:0123456789-.aeiostxyzTZ"#.utf8)
                                        + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF], repeatingRuns: true)
        var read = 0
        for line in generated {
            for _ in 0..<40 where Self.readWithoutRestoredObject(edits.edit(line)) { read += 1 }
        }
        #expect(read > 50, "only \(read) edited lines were read")
        // A parser that keeps the object leaves restores to the general parser.
        let storage = LineParserStorage(checkingCanonicalForm: false)
        #expect(generated[0].withUnsafeBytes { try? CanonicalLineParser.parse($0, storage: storage) } == nil)
    }

    @Test func randomEditsOfCanonicalLinesAreReadOnlyAsTheGeneralParserReadsThem() {
        let storage = LineParserStorage(checkingCanonicalForm: true)
        var edits = RandomLineEdits(seed: 7, alphabet: Array(#" "\{}[],:0123456789-.aeiostxyzTZ"#.utf8)
                                        + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF], repeatingRuns: true)
        var read = 0, tried = 0
        for (_, line) in Self.canonicalLines().prefix(2500) {
            for _ in 0..<4 {
                tried += 1
                if Self.compare(edits.edit(line), storage: storage) != nil { read += 1 }
            }
        }
        // Some edits leave a canonical line (a digit for a digit, a letter for a letter).
        #expect(read > 500, "only \(read) of \(tried) edited lines were read")
    }
}
