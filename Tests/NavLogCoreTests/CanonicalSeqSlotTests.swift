import Testing
@testable import NavLogCore
import NavLogSample

/// The canonical line of an event without a seq, with the seq put in at
/// its ``CanonicalWriter/seqSlot`` later, is byte for byte the line the
/// writer writes for the event numbered with that seq: on every kind, both
/// writing paths, and extra fields whose keys sort around `seq`.
@Suite("Canonical writer, seq slot")
struct CanonicalSeqSlotTests {
    /// Checks `event` (seq ignored) with each of a few seqs.
    static func check(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation) {
        var unnumbered = event
        unnumbered.seq = 0
        var writer = CanonicalWriter()
        writer.bytes = Array("prefix".utf8)  // the slot counts from the start of the writer's bytes
        writer.write(unnumbered)
        let line = Array(writer.bytes.dropFirst(6))
        let slot = writer.seqSlot - 6
        #expect(slot > 0 && slot < line.count, "no seq slot in \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        guard slot > 0 && slot < line.count else { return }
        for seq in [1, 9, 10, 4_096, Int.max] {
            var numbered = event
            numbered.seq = seq
            var expected = CanonicalWriter()
            expected.write(numbered)
            #expect(expected.seqSlot == -1, sourceLocation: sourceLocation)
            var spliced = CanonicalWriter()
            line.withUnsafeBytes { spliced.append($0, seq: seq, at: slot) }
            #expect(spliced.string == expected.string, sourceLocation: sourceLocation)
        }
    }

    @Test func generatedEventsOfEveryKind() {
        let generator = SampleGenerator(.init(sessions: 20, seed: 36, eventsPerSession: 20...200, interleave: true))
        var kinds = Set<String>()
        for event in generator.events() {
            Self.check(event)
            kinds.insert(event.type)
        }
        #expect(kinds.count >= 10, "\(kinds.sorted())")
    }

    @Test func seqFirstLastOrBetweenExtraFields() {
        let t = Timestamp(milliseconds: 1_795_168_800_123)
        // `seq` first (no cause, no scene), after `cause` and `scene`, and among
        // extra keys that sort just before it, between it and `session`, and first of all.
        Self.check(Event(session: "s", t: t, kind: .tabSelect(tab: "home")))
        Self.check(Event(session: "s", t: t, scene: "main", kind: .sceneOpen, cause: 3))
        for keys in [["sep"], ["seqa"], ["sequence", "ser"], ["a", "seq0", "zz"], [""]] {
            let extra = Dictionary(uniqueKeysWithValues: keys.map { ($0, JSONValue.number("1")) })
            Self.check(Event(session: "s", t: t, kind: .mark(label: "x"), extra: extra))
            Self.check(Event(session: "s", t: t, kind: .mark(label: "x"), meta: ["k": .string("v")], extra: extra))
        }
        Self.check(Event(session: "s", t: t, kind: .sessionStart(app: ["version": .string("1.0")], device: nil)))
        Self.check(Event(session: "s", t: t, kind: .stackPush(stack: "s", value: RouteValue(type: "T", data: .object(["b": .number("1")])))))
    }
}
