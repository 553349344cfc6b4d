import Testing
import NavLogCore

/// Session ids are told apart by their exact bytes: Swift's `String ==`
/// holds canonically equivalent strings equal, navlog does not.
@Suite("Session ids by their bytes")
struct SessionIDTests {
    static let composed = "caf\u{E9}", decomposed = "cafe\u{301}"

    @Test func canonicallyEquivalentIdsAreTwoIds() {
        #expect(Self.composed == Self.decomposed)   // what Swift says
        #expect(!SessionID.same(Self.composed, Self.decomposed))
        #expect(SessionID(Self.composed) != SessionID(Self.decomposed))
        #expect(Set([SessionID(Self.composed), SessionID(Self.decomposed), SessionID(Self.composed)]).count == 2)
        #expect(SessionID.same("", "") && SessionID.same("s-1", "s-1") && !SessionID.same("s-1", "s-10"))
        let bridged = String(decoding: Array(Self.composed.utf8), as: UTF8.self)
        #expect(SessionID(bridged) == SessionID(Self.composed))
        #expect(SessionID(bridged).hashValue == SessionID(Self.composed).hashValue)
    }

    @Test func theSequencerNumbersEachOnItsOwn() throws {
        var sequencer = Sequencer()
        let t = Timestamp(milliseconds: 1_795_168_800_000)
        var a = Event(session: Self.composed, seq: 5, t: t, kind: .mark(label: "a"))
        try sequencer.accept(&a)
        var b = Event(session: Self.decomposed, seq: 0, t: t, kind: .mark(label: "b"))
        try sequencer.accept(&b)
        #expect(b.seq == 1)
        var c = Event(session: Self.decomposed, seq: 2, t: t, kind: .mark(label: "c"))
        try sequencer.accept(&c)
        #expect(sequencer.lastSeq(of: Self.composed) == 5 && sequencer.lastSeq(of: Self.decomposed) == 2)
    }

    @Test func statesOfTheTwoAreNotEqual() {
        #expect(NavigationState(session: Self.composed) != NavigationState(session: Self.decomposed))
        #expect(NavigationState(session: Self.composed) == NavigationState(session: Self.composed))
    }
}
