import Testing
@testable import NavLogCore
import NavLogSample

/// Following sessions with a shared table of screen names (as the analytics
/// inputs do, one per thread) changes no occurrence: whatever the strings
/// (short ones held inline, long ones on the heap, equal strings in other
/// storage) and however often the table's slots are reused or its strings'
/// sessions freed.
@Suite("Session occurrences")
struct SessionOccurrencesTests {
    /// A session whose route values are strings made anew for each event.
    static func session(_ number: Int, random: inout SeededRandom) -> [Event] {
        let session = "s-\(number)"
        let types = ["Recipe", "Category", "A", "AVeryLongRouteTypeNameOnTheHeap", "tab:home", ""]
        let t = Timestamp(milliseconds: 1_790_000_000_000)
        var events: [Event] = []
        for seq in 1...400 {
            let type = random.pick(types) + (seq % 3 == 0 ? "" : String(random.next() % 40))
            let id = (random.percent(50) ? "id-" : "a-long-identifier-that-is-not-small-") + String(random.next() % 60)
            let kind: EventKind
            switch random.int(below: 10) {
            case 0: kind = .stackPop(stack: "home", count: 1)
            case 1: kind = .tabSelect(tab: random.pick(["home", "search"]))
            case 2: kind = .stackPush(stack: "home", value: RouteValue(type: type))
            default: kind = .stackPush(stack: random.pick(["home", "search"]), value: RouteValue(type: type, id: id))
            }
            events.append(Event(session: session, seq: seq, t: t, kind: kind))
        }
        return events
    }

    @Test func aSharedNameTableChangesNoOccurrence() {
        let names = ScreenNameCache(slots: 16)   // small: many collisions
        var random = SeededRandom(seed: 7)
        var screens = 0
        for number in 0..<40 {
            let events = Self.session(number, random: &random)   // freed after this session
            var plain = SessionOccurrences(session: "s-\(number)")
            var named = SessionOccurrences(session: "s-\(number)")
            for event in events {
                plain.add(event)
                named.add(event, names: names)
            }
            #expect(named.occurrences == plain.occurrences)
            screens += plain.occurrences.count
        }
        #expect(screens > 5_000)
    }
}
