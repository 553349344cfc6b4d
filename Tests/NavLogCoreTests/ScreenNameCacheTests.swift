import Testing
@testable import NavLogCore
import NavLogSample

/// The screen-name table answers by the identity of a key's strings; its
/// answers must be the names built from scratch, whatever the strings
/// (short ones held inline, long ones on the heap, equal strings with other
/// storage) and however often slots are reused or strings freed.
@Suite("Screen name cache")
struct ScreenNameCacheTests {
    @Test func namesAreThoseBuiltFromScratch() {
        let names = ScreenNameCache(slots: 16)   // small: many collisions
        var random = SeededRandom(seed: 7)
        let types = ["Recipe", "Category", "A", "AVeryLongRouteTypeNameOnTheHeap", "tab:home", ""]
        var held: [ScreenKey] = []
        var hits = 0
        for round in 0..<20_000 {
            // Strings made anew each time: equal content, other storage.
            let type = types[Int(random.next() % UInt64(types.count))] + (round % 3 == 0 ? "" : String(random.next() % 40))
            let id = (random.next() % 2 == 0 ? "id-" : "a-long-identifier-that-is-not-small-") + String(random.next() % 60)
            let key = ScreenKey.route(type: type, id: id)
            #expect(names.name(of: key) == key.name)
            // Keys held on to come back with the very same strings.
            if random.next() % 4 == 0 { held.append(key) }
            if let again = held.randomElement(using: &random) {
                let before = again.name
                #expect(names.name(of: again) == before)
                hits += 1
            }
            if held.count > 64 { held.removeFirst(32) }   // freed: their addresses may be reused
        }
        #expect(hits > 1000)
        // Keys that are not `type/id` pass through.
        for key in [ScreenKey.root, .route(type: "Recipe", id: nil), .tab("home"), .modal("settings"), .split("main")] {
            #expect(names.name(of: key) == key.name)
        }
    }

    @Test func aSessionFollowedWithTheTableGivesTheSameOccurrences() {
        let names = ScreenNameCache(slots: 16)
        let generator = SampleGenerator(.init(sessions: 30, seed: 3, eventsPerSession: 50...300))
        var plain: [String: SessionOccurrences] = [:]
        var cached: [String: SessionOccurrences] = [:]
        for event in generator.events() {
            plain[event.session, default: SessionOccurrences(session: event.session)].add(event)
            cached[event.session, default: SessionOccurrences(session: event.session)].add(event, names: names)
        }
        #expect(plain.count == 30)
        for (session, occurrences) in plain {
            #expect(cached[session]?.occurrences == occurrences.occurrences)
        }
    }
}
