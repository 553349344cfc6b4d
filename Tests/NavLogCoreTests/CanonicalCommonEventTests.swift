import Testing
@testable import NavLogCore
import NavLogSample

/// The one-pass writer for common events gives exactly the bytes of the
/// general, field-at-a-time writer.
@Suite("Canonical writer, common events")
struct CanonicalCommonEventTests {
    static func general(_ e: Event) -> [UInt8] {
        var w = CanonicalWriter()
        w.writeGeneral(e)
        return w.bytes
    }

    /// Writes with the one-pass path; nil when it declines the event.
    static func common(_ e: Event) -> [UInt8]? {
        var w = CanonicalWriter()
        w.bytes = Array("prefix".utf8)  // appends after what is there
        guard w.writeCommonEvent(e) else { return nil }
        #expect(w.bytes.starts(with: Array("prefix".utf8)))
        return Array(w.bytes.dropFirst(6))
    }

    @Test func generatedEventsOfEveryKind() {
        let generator = SampleGenerator(.init(sessions: 40, seed: 31, eventsPerSession: 50...400, interleave: true))
        var written = 0, declined = 0
        for event in generator.events() {
            if let fast = Self.common(event) {
                #expect(fast == Self.general(event), "\(event.type): \(String(decoding: Self.general(event), as: UTF8.self))")
                written += 1
            } else {
                declined += 1
            }
        }
        #expect(written > 10 * declined, "written \(written), declined \(declined)")
    }

    @Test func awkwardFields() {
        let t = Timestamp(milliseconds: -62_135_596_800_000)  // 0001-01-01
        let names = ["", "a", "é\u{301}", "tab\there", "quote\"back\\slash", "\u{1}\u{1f}\u{7f}", "🍰 cake", String(repeating: "x", count: 300)]
        var kinds: [EventKind] = [.sessionEnd, .sceneOpen, .sceneClose, .modalDismiss(modal: nil)]
        for name in names {
            kinds += [
                .stackPush(stack: name, value: RouteValue(type: name, id: name)),
                .stackPush(stack: name, value: RouteValue(type: "T", id: nil)),
                .stackPop(stack: name, count: nil), .stackPop(stack: name, count: 12_345),
                .stackPopToRoot(stack: name), .tabSelect(tab: name),
                .tabVisibility(tab: name, hidden: true), .tabVisibility(tab: name, hidden: false),
                .mark(label: name), .modalDismiss(modal: name), .urlOpen(url: name), .other(type: "x." + name),
                .splitVisibility(split: name, visibility: .detailOnly), .layoutChange(sizeClass: .regular),
                .stackSet(stack: name, path: []), .stackSet(stack: name, path: [RouteValue(type: name), RouteValue(type: "T", id: name)]),
                .splitSelect(split: nil, column: .detail, selection: []),
                .splitSelect(split: name, column: .sidebar, selection: [RouteValue(type: name, id: "1"), RouteValue(type: "U")]),
                .tabsDefine(tabs: []), .tabsDefine(tabs: [name, "b", name]),
            ]
            kinds += ModalStyle.allCases.map { .modalPresent(modal: name, style: $0) } + [.modalPresent(modal: name, style: nil)]
        }
        for kind in kinds {
            for (seq, cause, scene) in [(0, nil, nil), (1, 0, "main"), (Int.max, Int.min, "s"), (42, -7, "é")] as [(Int, Int?, String?)] {
                let event = Event(session: "s-\(seq)", seq: seq, t: t, scene: scene, kind: kind, cause: cause)
                guard let fast = Self.common(event) else {
                    Issue.record("declined \(event)")
                    continue
                }
                #expect(fast == Self.general(event), "\(String(decoding: Self.general(event), as: UTF8.self))")
            }
        }
    }

    @Test func eventsWithMetaExtraOrRouteDataTakeTheGeneralPath() {
        let t = Timestamp(milliseconds: 0)
        let push = EventKind.stackPush(stack: "s", value: RouteValue(type: "T", data: .object(["b": .number("1")])))
        #expect(Self.common(Event(session: "s", seq: 1, t: t, kind: push)) == nil)
        #expect(Self.common(Event(session: "s", seq: 1, t: t, kind: .mark(label: "x"), meta: [:])) == nil)
        #expect(Self.common(Event(session: "s", seq: 1, t: t, kind: .mark(label: "x"), extra: ["k": .bool(true)])) == nil)
        #expect(Self.common(Event(session: "s", seq: 1, t: t, kind: .stackSet(stack: "s", path: [RouteValue(type: "T", data: .null)]))) == nil)
        #expect(Self.common(Event(session: "s", seq: 1, t: t, kind: .sessionStart(app: nil, device: nil))) == nil)
        var writer = CanonicalWriter()
        writer.write(Event(session: "s", seq: 1, t: t, kind: push))
        #expect(writer.string == #"{"seq":1,"session":"s","stack":"s","t":"1970-01-01T00:00:00.000Z","type":"stack.push","value":{"data":{"b":1},"type":"T"}}"#)
    }
}
