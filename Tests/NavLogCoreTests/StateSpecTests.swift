import Testing
import NavLogCore

/// `--at SPEC` (docs/state.md, docs/events.md): N, an RFC 3339 instant, or end.
@Suite("State spec")
struct StateSpecTests {
    @Test(arguments: [
        ("0", StateSpec.seq(0)), ("42", .seq(42)), ("007", .seq(7)), ("end", .end),
        ("2026-11-20T10:00:05Z", .instant(Fixture.t(5))),
        ("2026-11-20T11:00:05.999999+01:00", .instant(Timestamp(milliseconds: Fixture.t(5).milliseconds + 999))),
        ("2026-11-20t10:00:05z", .instant(Fixture.t(5))),
    ])
    func parses(text: String, expected: StateSpec) throws {
        #expect(try StateSpec(parsing: text) == expected)
    }

    @Test(arguments: ["", "-1", "+3", "1.5", "1e3", "END", "End", " 1", "1 ", "abc", "2026-11-20",
                      "2026-11-20 10:00:05Z", "99999999999999999999"])
    func rejects(text: String) {
        #expect(throws: StateSpecError.self) { try StateSpec(parsing: text) }
    }

    @Test func errorsSayWhatWasGiven() {
        #expect(throws: StateSpecError(
            text: "soon", reason: "expected a seq (an integer ≥ 0), an RFC 3339 instant, or \"end\"")) {
            try StateSpec(parsing: "soon")
        }
        #expect(StateSpecError(text: "x", reason: "why").description == #"invalid state spec "x": why"#)
    }

    @Test(arguments: [StateSpec.seq(0), .seq(12), .instant(Fixture.t(5)), .end])
    func descriptionParsesBack(spec: StateSpec) throws {
        #expect(try StateSpec(parsing: spec.description) == spec)
    }

    static let kinds: [EventKind] = [
        .stackPush(stack: "main", value: R("A")), .stackPush(stack: "main", value: R("B")),
        .stackPush(stack: "main", value: R("C")), .stackPop(stack: "main", count: nil),
    ]

    @Test func bySeq() {
        let events = Fixture.events(Self.kinds)
        let at2 = NavigationState(session: "s-1", folding: events, at: .seq(2))
        #expect(at2 == Fixture.state(Array(Self.kinds.prefix(2))))
        #expect(at2.seq == 2)
        #expect(at2.scenes["main"]?.stacks["main"] == [R("A"), R("B")])
        #expect(NavigationState(session: "s-1", folding: events, at: .seq(99)) == Fixture.state(Self.kinds))
    }

    @Test func seqZeroIsTheEmptyState() {
        let state = NavigationState(session: "s-1", folding: Fixture.events(Self.kinds), at: .seq(0))
        #expect(state == NavigationState(session: "s-1"))
        #expect(state.jsonText == #"{"anomalies":{},"scenes":{},"seq":0,"session":"s-1","t":null}"#)
    }

    @Test func endAppliesEverything() {
        let events = Fixture.events(Self.kinds)
        let state = NavigationState(session: "s-1", folding: events, at: .end)
        #expect(state.seq == 4)
        #expect(state.scenes["main"]?.stacks["main"] == [R("A"), R("B")])
        #expect(NavigationState(session: "s-1", folding: events) == state)
    }

    @Test func bySeqWithGaps() {
        let events = [
            Fixture.event(3, .stackPush(stack: "main", value: R("A"))),
            Fixture.event(10, .stackPush(stack: "main", value: R("B"))),
        ]
        #expect(NavigationState(session: "s-1", folding: events, at: .seq(9)).scenes["main"]?.stacks["main"] == [R("A")])
        #expect(NavigationState(session: "s-1", folding: events, at: .seq(9)).seq == 3)
        #expect(NavigationState(session: "s-1", folding: events, at: .seq(2)) == NavigationState(session: "s-1"))
    }

    /// Events whose t goes 10:00:10, 10:00:30, 10:00:20, 10:00:40.
    static let nonMonotonic: [Event] = [
        Event(session: "s-1", seq: 1, t: Fixture.t(10), kind: .stackPush(stack: "main", value: R("A"))),
        Event(session: "s-1", seq: 2, t: Fixture.t(30), kind: .stackPush(stack: "main", value: R("B"))),
        Event(session: "s-1", seq: 3, t: Fixture.t(20), kind: .stackPush(stack: "main", value: R("C"))),
        Event(session: "s-1", seq: 4, t: Fixture.t(40), kind: .stackPush(stack: "main", value: R("D"))),
    ]

    @Test func byInstantAppliesExactlyTheEventsAtOrBeforeIt() {
        let at25 = NavigationState(session: "s-1", folding: Self.nonMonotonic, at: .instant(Fixture.t(25)))
        #expect(at25.scenes["main"]?.stacks["main"] == [R("A"), R("C")])
        #expect(at25.seq == 3)
        #expect(at25.t == Fixture.t(20))
        // Inclusive: t equal to the instant applies.
        let at30 = NavigationState(session: "s-1", folding: Self.nonMonotonic, at: .instant(Fixture.t(30)))
        #expect(at30.scenes["main"]?.stacks["main"] == [R("A"), R("B"), R("C")])
        #expect(at30.t == Fixture.t(20))
        // One millisecond short of an event leaves it out.
        let justBefore = Timestamp(milliseconds: Fixture.t(10).milliseconds - 1)
        #expect(NavigationState(session: "s-1", folding: Self.nonMonotonic, at: .instant(justBefore))
            == NavigationState(session: "s-1"))
        #expect(NavigationState(session: "s-1", folding: Self.nonMonotonic, at: .instant(Fixture.t(40)))
            == NavigationState(session: "s-1", folding: Self.nonMonotonic))
    }

    @Test func includesAndIsPast() {
        let e = Fixture.event(5, .mark(label: "x"))
        #expect(StateSpec.seq(5).includes(e))
        #expect(!StateSpec.seq(4).includes(e))
        #expect(StateSpec.seq(4).isPast(e))
        #expect(!StateSpec.seq(5).isPast(e))
        #expect(StateSpec.instant(Fixture.t(5)).includes(e))
        #expect(!StateSpec.instant(Fixture.t(4)).includes(e))
        #expect(!StateSpec.instant(Fixture.t(4)).isPast(e))
        #expect(StateSpec.end.includes(e))
        #expect(!StateSpec.end.isPast(e))
    }

    @Test func aSeqSpecStopsReadingAtTheFirstEventPastIt() {
        let events = Fixture.events(Array(repeating: .mark(label: "m"), count: 100))
        var pulled = 0
        var iterator = events.makeIterator()
        let counting = AnySequence { AnyIterator { () -> Event? in
            let next = iterator.next()
            if next != nil { pulled += 1 }
            return next
        } }
        var state = NavigationState(session: "s-1")
        #expect(state.apply(counting, upTo: .seq(10)) == 10)
        #expect(pulled == 11)
        #expect(state.seq == 10)
    }

    @Test func applyingASequenceCountsWhatItApplied() {
        var state = NavigationState(session: "s-1")
        #expect(state.apply(Self.nonMonotonic, upTo: .instant(Fixture.t(25))) == 2)
        #expect(state.apply(Self.nonMonotonic) == 4)
    }
}
