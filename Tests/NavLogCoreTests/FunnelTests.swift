import Testing
import NavLogCore

/// Funnel semantics (docs/analytics.md), each case computed by hand.
@Suite("Funnels")
struct FunnelTests {
    /// An occurrence at `seq`, `ms` milliseconds after t0: `"mark:x"`, `"url:x"` or a screen name.
    static func O(_ seq: Int, _ ms: Int64, _ spec: String) -> FunnelOccurrence {
        let t = Timestamp(milliseconds: Fixture.t0.milliseconds + ms)
        if spec.hasPrefix("mark:") { return FunnelOccurrence(seq: seq, t: t, target: .mark, name: String(spec.dropFirst(5))) }
        if spec.hasPrefix("url:") { return FunnelOccurrence(seq: seq, t: t, target: .url, name: String(spec.dropFirst(4))) }
        return FunnelOccurrence(seq: seq, t: t, target: .screen, name: spec)
    }

    static func funnel(_ steps: [String], within: String? = nil, order: FunnelOrder = .ordered, exclude: [String] = []) -> Funnel {
        Funnel(steps: steps.map(FunnelStep.init), window: within.flatMap(FunnelWindow.init(parsing:)),
               order: order, exclusions: exclude.map(FunnelStep.init))
    }

    /// Occurrences one second apart, seq 1, 2, 3, …
    static func seconds(_ names: [String]) -> [FunnelOccurrence] {
        names.enumerated().map { O($0.offset + 1, Int64($0.offset + 1) * 1000, $0.element) }
    }

    @Test func stepsMatchInOrderTakingTheEarliestEachTime() {
        let path = Self.funnel(["A", "B", "C"]).evaluate(Self.seconds(["X", "A", "B", "A", "B", "C"]))
        #expect(path.seqs == [2, 3, 6])
    }

    @Test func aStepBeforeThePreviousDoesNotCount() {
        #expect(Self.funnel(["A", "B"]).evaluate(Self.seconds(["B", "A"])).reached == 1)
        #expect(Self.funnel(["A", "B"]).evaluate(Self.seconds(["B", "C"])).reached == 0)
    }

    @Test func globsMarksAndDeepLinksAreSteps() {
        let occurrences = [Self.O(1, 0, "url:app://recipe/pie"), Self.O(2, 100, "Recipe/pie"),
                           Self.O(3, 200, "mark:add-to-cart"), Self.O(4, 300, "mark:purchase")]
        #expect(Self.funnel(["url:app://recipe/*", "Recipe/*", "mark:purchase"]).evaluate(occurrences).seqs == [1, 2, 4])
        // A screen pattern never matches a mark label, nor a mark pattern a screen.
        #expect(Self.funnel(["purchase"]).evaluate(occurrences).reached == 0)
        #expect(Self.funnel(["mark:Recipe/*"]).evaluate(occurrences).reached == 0)
        // Whole string, case-sensitive.
        #expect(Self.funnel(["recipe/*"]).evaluate(occurrences).reached == 0)
        #expect(Self.funnel(["Recipe"]).evaluate(occurrences).reached == 0)
    }

    @Test func theWindowIsInclusive() {
        let occurrences = [Self.O(1, 0, "A"), Self.O(2, 5_000, "B"), Self.O(3, 10_000, "C")]
        #expect(Self.funnel(["A", "B", "C"], within: "10s").evaluate(occurrences).reached == 3)
        #expect(Self.funnel(["A", "B", "C"], within: "9.999s").evaluate(occurrences).reached == 2)
        #expect(Self.funnel(["A", "B", "C"], within: "4999ms").evaluate(occurrences).reached == 1)
        // Measured from the start, not from the previous step.
        #expect(Self.funnel(["A", "B", "C"], within: "6s").evaluate(occurrences).reached == 2)
    }

    @Test func theBestStartBeatsTheFirstStart() {
        // From A@1 the window of 5 s ends before B@20 s; from A@18 it reaches B and C.
        let occurrences = [Self.O(1, 0, "A"), Self.O(2, 18_000, "A"), Self.O(3, 20_000, "B"), Self.O(4, 22_000, "C")]
        let path = Self.funnel(["A", "B", "C"], within: "5s").evaluate(occurrences)
        #expect(path.seqs == [2, 3, 4])
        #expect(path.times.map { $0.milliseconds - Fixture.t0.milliseconds } == [18_000, 20_000, 22_000])
    }

    @Test func onATieTheEarliestStartWins() {
        let path = Self.funnel(["A", "B"]).evaluate(Self.seconds(["A", "A", "B"]))
        #expect(path.seqs == [1, 3])
    }

    @Test func repeatedStepsNeedRepeatedOccurrences() {
        // A → A needs two views of A, the second strictly after the first.
        #expect(Self.funnel(["A", "A"]).evaluate(Self.seconds(["A"])).reached == 1)
        #expect(Self.funnel(["A", "A"]).evaluate(Self.seconds(["A", "B", "A"])).seqs == [1, 3])
        #expect(Self.funnel(["A", "B", "A", "B"]).evaluate(Self.seconds(["A", "B", "B", "A", "B"])).seqs == [1, 2, 4, 5])
    }

    @Test func oneScreenCanMatchTwoDifferentPatternsOnlyOnce() {
        // "Recipe/*" and "*" both match Recipe/pie, but one occurrence serves one step.
        #expect(Self.funnel(["Recipe/*", "*"]).evaluate(Self.seconds(["Recipe/pie"])).reached == 1)
        #expect(Self.funnel(["Recipe/*", "*"]).evaluate(Self.seconds(["Recipe/pie", "Recipe/pie"])).reached == 2)
    }

    @Test func occurrencesComeFromEveryScene() {
        let events = [
            Fixture.event(1, .sessionStart(app: nil, device: nil)),
            Fixture.event(2, .stackPush(stack: "main", value: R("A"))),
            Fixture.event(3, .stackPush(stack: "main", value: R("B")), scene: "second"),
            Fixture.event(4, .mark(label: "done"), scene: "second"),
            Fixture.event(5, .stackPush(stack: "main", value: R("C"))),
        ]
        var recorder = SessionOccurrences(session: Fixture.session)
        for event in events { recorder.add(event) }
        #expect(recorder.occurrences.map(\.seq) == [2, 3, 4, 5])
        #expect(Self.funnel(["A", "B", "mark:done", "C"]).evaluate(recorder.occurrences).reached == 4)
        #expect(recorder.startTime == Fixture.t(1))
    }

    @Test func screenViewsComeFromTheProjectionNotFromEventFields() {
        // A push onto a stack that is not visible changes no screen: no occurrence.
        let events = [
            Fixture.event(1, .tabSelect(tab: "home")),
            Fixture.event(2, .stackPush(stack: "search", value: R("Recipe", "pie"))),
            Fixture.event(3, .stackPush(stack: "home", value: R("Recipe", "tart"))),
        ]
        var recorder = SessionOccurrences(session: Fixture.session)
        for event in events { recorder.add(event) }
        #expect(recorder.occurrences.map(\.name) == ["tab:home", "Recipe/tart"])
    }

    @Test func strictOrderNeedsTheVeryNextScreenView() {
        let occurrences = Self.seconds(["A", "X", "B", "A", "B"])
        #expect(Self.funnel(["A", "B"], order: .strict).evaluate(occurrences).seqs == [4, 5])
        #expect(Self.funnel(["A", "B"]).evaluate(occurrences).seqs == [1, 3])
        #expect(Self.funnel(["A", "B"], order: .strict).evaluate(Self.seconds(["A", "X", "B"])).reached == 1)
        // A mark between two screens does not break a strict chain of screens,
        // and a mark step takes the next mark.
        let mixed = Self.seconds(["A", "mark:m", "B", "mark:buy"])
        #expect(Self.funnel(["A", "B"], order: .strict).evaluate(mixed).reached == 2)
        #expect(Self.funnel(["A", "B", "mark:buy"], order: .strict).evaluate(mixed).reached == 3)
        #expect(Self.funnel(["A", "B", "mark:buy"], order: .strict).evaluate(Self.seconds(["A", "B", "mark:m", "mark:buy"])).reached == 2)
        #expect(Self.funnel(["A", "mark:m", "B"], order: .strict).evaluate(mixed).reached == 3)
    }

    @Test func anExcludedOccurrenceBetweenTwoStepsStopsTheChain() {
        let funnel = Self.funnel(["A", "B", "C"], exclude: ["Help"])
        #expect(funnel.evaluate(Self.seconds(["A", "Help", "B", "C"])).reached == 1)
        #expect(funnel.evaluate(Self.seconds(["A", "B", "Help", "C"])).reached == 2)
        #expect(funnel.evaluate(Self.seconds(["Help", "A", "B", "C", "Help"])).reached == 3)
        // A later start without the excluded screen in between still converts.
        #expect(funnel.evaluate(Self.seconds(["A", "Help", "A", "B", "C"])).seqs == [3, 4, 5])
        // Marks can be excluded too.
        #expect(Self.funnel(["A", "B"], exclude: ["mark:error"]).evaluate(Self.seconds(["A", "mark:error", "B"])).reached == 1)
    }

    @Test func emptyInputsReachNothing() {
        #expect(Self.funnel(["A"]).evaluate([]).reached == 0)
        let report = FunnelReport(funnel: Self.funnel(["A", "B"]), by: nil, tallies: [:])
        #expect(report.csv == """
            step,pattern,sessions,conversion_from_start,conversion_from_previous,median_seconds_from_previous
            1,A,0,,,
            2,B,0,,,

            """)
    }

    @Test func countsConversionsAndMediansByHand() {
        let funnel = Self.funnel(["A", "B", "C"])
        var tally = FunnelTally(steps: 3)
        // s1: A@0 B@1s C@3s; s2: A@0 B@2s; s3: A@0 B@4s C@5.001s; s4: nothing; s5: A only.
        tally.add(funnel.evaluate([Self.O(1, 0, "A"), Self.O(2, 1_000, "B"), Self.O(3, 3_000, "C")]))
        tally.add(funnel.evaluate([Self.O(1, 0, "A"), Self.O(2, 2_000, "B")]))
        tally.add(funnel.evaluate([Self.O(1, 0, "A"), Self.O(2, 4_000, "B"), Self.O(3, 5_001, "C")]))
        tally.add(funnel.evaluate([Self.O(1, 0, "X")]))
        tally.add(funnel.evaluate([Self.O(1, 0, "A")]))
        let report = FunnelReport(funnel: funnel, by: nil, tallies: ["": tally])
        // B gaps 1000, 2000, 4000 → 2.000; C gaps 2000, 1001 → mean 1500.5 ms → 1501 ms.
        #expect(report.csv == """
            step,pattern,sessions,conversion_from_start,conversion_from_previous,median_seconds_from_previous
            1,A,4,1.0000,0.8000,
            2,B,3,0.7500,0.7500,2.000
            3,C,2,0.5000,0.6667,1.501

            """)
    }

    @Test func zeroDenominatorsGiveEmptyCells() {
        let funnel = Self.funnel(["A", "B"])
        var tally = FunnelTally(steps: 2)
        tally.add(funnel.evaluate(Self.seconds(["B"])))
        let report = FunnelReport(funnel: funnel, by: nil, tallies: ["": tally])
        #expect(report.csv.hasSuffix("1,A,0,,0.0000,\n2,B,0,,,\n"))
    }

    @Test func evenCountMediansAreTheMeanOfTheMiddleTwo() {
        var tally = FunnelTally(steps: 2)
        for gap: Int64 in [10, 1, 2, 1_000] {
            tally.add(FunnelPath(times: [Fixture.t0, Timestamp(milliseconds: Fixture.t0.milliseconds + gap)], seqs: [1, 2]))
        }
        #expect(tally.rows(patterns: ["A", "B"])[1].medianMillisecondsFromPrevious == 6)  // (2 + 10) / 2
        var halves = FunnelTally(steps: 2)
        for gap: Int64 in [1, 2] {
            halves.add(FunnelPath(times: [Fixture.t0, Timestamp(milliseconds: Fixture.t0.milliseconds + gap)], seqs: [1, 2]))
        }
        #expect(halves.rows(patterns: ["A", "B"])[1].medianMillisecondsFromPrevious == 2)  // 1.5 ms rounds half away from zero
    }

    @Test func segmentsSortByCodePointWithALeadingColumn() {
        let funnel = Self.funnel(["A"])
        func tally(_ reached: Int, of sessions: Int) -> FunnelTally {
            var t = FunnelTally(steps: 1)
            for i in 0..<sessions { t.add(funnel.evaluate(i < reached ? Self.seconds(["A"]) : [])) }
            return t
        }
        let report = FunnelReport(funnel: funnel, by: "app.version",
                                  tallies: ["3.10": tally(1, of: 2), "3.9": tally(2, of: 2), "": tally(0, of: 1), "Z": tally(1, of: 1)])
        #expect(report.csv == """
            segment,step,pattern,sessions,conversion_from_start,conversion_from_previous,median_seconds_from_previous
            ,1,A,0,,0.0000,
            3.10,1,A,1,1.0000,0.5000,
            3.9,1,A,2,1.0000,1.0000,
            Z,1,A,1,1.0000,1.0000,

            """)
    }

    @Test func segmentValuesComeFromTheFirstSessionStart() {
        var recorder = SessionOccurrences(session: "s-1")
        recorder.add(Fixture.event(1, .sessionStart(app: ["version": .string("3.1.0"), "build": .number("42")],
                                                    device: ["idiom": .string("pad")])))
        recorder.add(Fixture.event(2, .sessionStart(app: ["version": .string("9.9")], device: nil)))
        #expect(recorder.segment(["app", "version"]) == "3.1.0")
        #expect(recorder.segment(["app", "build"]) == "42")
        #expect(recorder.segment(["device", "idiom"]) == "pad")
        #expect(recorder.segment(["device", "model"]) == "")
        #expect(recorder.segment(["app"]) == #"{"build":42,"version":"3.1.0"}"#)
        #expect(SessionOccurrences(session: "x").segment(["app", "version"]) == "")
    }

    @Test func csvQuotesPerRFC4180() {
        var tally = FunnelTally(steps: 1)
        tally.add(FunnelPath())
        let report = FunnelReport(funnel: Self.funnel(["a,\"b\""]), by: nil, tallies: ["": tally])
        #expect(report.csv.hasSuffix("1,\"a,\"\"b\"\"\",0,,0.0000,\n"))
    }

    @Test(arguments: [("90s", 90_000), ("1h30m", 5_400_000), ("1.5s", 1_500), ("250ms", 250), ("2d", 172_800_000),
                      ("0.5ms0.5ms", 1), ("10m", 600_000), ("1.0009s", 1_000)] as [(String, Int64)])
    func windowsParse(text: String, ms: Int64) {
        #expect(FunnelWindow(parsing: text)?.milliseconds == ms)
    }

    @Test(arguments: ["", "10", "s", "-5s", "1.2.3s", "5 s", "5sec", "1e3s", ".s"])
    func badWindowsDoNotParse(text: String) {
        #expect(FunnelWindow(parsing: text) == nil)
    }
}
