import Testing
@testable import NavLogCore
@testable import NavLogSample
import NavLogTestSupport

/// The sample generator: deterministic, well-formed, realistic sessions.
@Suite("SampleGenerator")
struct SampleGeneratorTests {
    static let contractKinds = [
        "session.start", "session.end", "scene.open", "scene.close", "tabs.define", "tab.select",
        "tab.visibility", "stack.push", "stack.pop", "stack.popToRoot", "stack.set", "split.select",
        "split.visibility", "modal.present", "modal.dismiss", "url.open", "state.restore",
        "layout.change", "mark",
    ]

    /// Every event of a generator, as canonical NDJSON.
    static func ndjson(_ generator: SampleGenerator) -> [UInt8] {
        NavLogTestSupport.ndjson(generator.events())
    }

    static func sessions(_ generator: SampleGenerator) -> [[Event]] {
        generator.sessions().map { Array($0) }
    }

    /// 200 sessions at the default settings, shared by several tests.
    static let corpus: [[Event]] = sessions(SampleGenerator(.init(sessions: 200, seed: 2026)))

    // MARK: Determinism

    @Test func seededRandomMatchesReferenceXoshiro256StarStar() {
        // Reference values from an independent implementation (SplitMix64 seeding).
        var zero = SeededRandom(seed: 0)
        #expect([zero.next(), zero.next(), zero.next(), zero.next()]
            == [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0, 0x6AA5_94F1_262D_2D2C])
        var fortyTwo = SeededRandom(seed: 42)
        #expect(fortyTwo.next() == 0x1578_0B2E_0C2E_C716)
        var dice = SeededRandom(seed: 42)
        #expect((0..<12).map { _ in dice.int(below: 6) } == [0, 2, 4, 5, 5, 4, 4, 5, 4, 3, 4, 1])
        #expect(SeededRandom.derive(1, stream: 0) == 0xBEEB_8DA1_658E_EC67)
        #expect(SeededRandom.derive(1, stream: 5) == 0x62F3_545A_35E9_61FE)
    }

    @Test func seededRandomStaysInRange() {
        var random = SeededRandom(seed: 9)
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            let v = random.int(in: -3...3)
            #expect((-3...3).contains(v))
            seen.insert(v)
        }
        #expect(seen.count == 7)
        #expect(random.weightedIndex([0, 5, 0]) == 1)
    }

    @Test func sameOptionsGiveByteIdenticalOutput() {
        for interleave in [false, true] {
            let options = SampleGenerator.Options(sessions: 60, seed: 77, interleave: interleave)
            let a = Self.ndjson(SampleGenerator(options))
            let b = Self.ndjson(SampleGenerator(options))
            #expect(!a.isEmpty)
            #expect(a == b)
        }
    }

    @Test func differentSeedsGiveDifferentOutput() {
        let a = Self.ndjson(SampleGenerator(.init(sessions: 20, seed: 1)))
        let b = Self.ndjson(SampleGenerator(.init(sessions: 20, seed: 2)))
        #expect(a != b)
        // Not just a shifted copy: the first sessions differ in content.
        let first1 = Array(SampleGenerator(.init(sessions: 1, seed: 1)).session(at: 0)).map(\.type)
        let first2 = Array(SampleGenerator(.init(sessions: 1, seed: 2)).session(at: 0)).map(\.type)
        #expect(first1 != first2)
    }

    @Test func aSessionIsTheSameAloneInOrderOrInterleaved() {
        let generator = SampleGenerator(.init(sessions: 30, seed: 5))
        let inOrder = Self.sessions(generator)
        for i in [0, 7, 29] {
            #expect(Array(generator.session(at: i)) == inOrder[i])
        }
        // More sessions after it do not change it.
        let longer = SampleGenerator(.init(sessions: 300, seed: 5))
        #expect(Array(longer.session(at: 7)) == inOrder[7])
    }

    @Test func outputMatchesGoldenDigest() {
        // FNV-1a of the canonical NDJSON of 5 sessions, seed 1. Pins the
        // output across platforms; update deliberately when the model changes.
        let bytes = Self.ndjson(SampleGenerator(.init(sessions: 5, seed: 1)))
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
        #expect(bytes.count == 45_219)
        #expect(hash == 0xC14D_B888_B097_68BE)
    }

    // MARK: Well-formed sessions

    @Test func sessionsAreNumberedStartAndCountFromOne() {
        let generator = SampleGenerator(.init(sessions: 120, seed: 11))
        var ids = Set<String>()
        for (i, session) in generator.sessions().enumerated() {
            let events = Array(session)
            #expect(session.id == generator.sessionID(i))
            #expect(ids.insert(session.id).inserted)
            #expect(events.first?.type == "session.start")
            #expect(events.first?.t == session.start)
            #expect(events.count == session.eventCount)
            for (k, e) in events.enumerated() {
                #expect(e.session == session.id)
                #expect(e.seq == k + 1)
                if k > 0 { #expect(e.t > events[k - 1].t) }
            }
            #expect(events.dropFirst().allSatisfy { $0.type != "session.start" })
        }
        #expect(generator.sessionID(41) == "s-000042")
        #expect(generator.sessionID(1_234_566) == "s-1234567")
    }

    @Test("events per session stay in range", arguments: [1...1, 2...2, 1...5, 7...9, 20...100, 300...400])
    func eventsPerSessionInRange(range: ClosedRange<Int>) {
        let generator = SampleGenerator(.init(sessions: 80, seed: 3, eventsPerSession: range))
        var lengths = Set<Int>()
        for session in generator.sessions() {
            let n = Array(session).count
            #expect(range.contains(n))
            lengths.insert(n)
        }
        #expect(lengths.count >= min(range.count, 3))
    }

    @Test func meanLengthsGiveRangesAroundTheMean() {
        #expect(SampleGenerator.Options.eventsPerSession(mean: 60) == 30...90)
        #expect(SampleGenerator.Options.eventsPerSession(mean: 1) == 1...1)
        #expect(SampleGenerator.Options.eventsPerSession(mean: 3) == 1...4)
        // Out-of-range options are clamped, not trusted.
        let clamped = SampleGenerator(.init(sessions: -4, eventsPerSession: -3...0, appVersions: [], liveSessions: 0))
        #expect(clamped.options.sessions == 0)
        #expect(clamped.options.eventsPerSession == 1...1)
        #expect(clamped.options.appVersions == SampleGenerator.Options.defaultAppVersions)
        #expect(clamped.options.liveSessions == 1)
        #expect(Array(clamped.events()).isEmpty)
    }

    @Test func gapsAreRealistic() {
        var think = 0, fast = 0
        for events in Self.corpus {
            for (a, b) in zip(events, events.dropFirst()) {
                let gap = b.t.milliseconds - a.t.milliseconds
                #expect(gap >= 1 && gap <= 300_000)
                if gap >= 300 && gap <= 20_000 { think += 1 }
                if gap < 100 { fast += 1 }
            }
        }
        // Mostly a person deciding; app follow-ups and deep-link effects are fast.
        #expect(think > fast)
        #expect(fast > 0)
    }

    @Test func startTimesFollowTheOptions() {
        let start = Timestamp(rfc3339: "2030-01-02T03:04:05.678Z")!
        let generator = SampleGenerator(.init(sessions: 50, seed: 8, start: start))
        var previous = Int64.min
        for session in generator.sessions() {
            #expect(session.start >= start)
            #expect(session.start.milliseconds > previous)
            previous = session.start.milliseconds
        }
    }

    // MARK: Coverage

    @Test func everyContractKindAppears() {
        var types = Set<String>()
        var unknown = Set<String>()
        for events in Self.corpus {
            for e in events {
                types.insert(e.type)
                if case .other(let type) = e.kind { unknown.insert(type) }
            }
        }
        for kind in Self.contractKinds {
            #expect(types.contains(kind), "missing \(kind)")
        }
        #expect(!unknown.isEmpty)
    }

    @Test func variationsOfEachKindAppear() {
        var styles = Set<ModalStyle>(), columns = Set<SplitColumn>(), visibilities = Set<SplitVisibility>()
        var scenes = Set<String>(), idioms = Set<String>(), versions = Set<String>()
        var popTwo = false, multiSelect = false, emptySelection = false, omittedStyle = false
        var sheetOverSheet = false, withMeta = 0, withData = false, dismissWithoutID = false
        for events in Self.corpus {
            var presented: [String] = []
            for e in events {
                if let scene = e.scene { scenes.insert(scene) }
                if e.meta != nil { withMeta += 1 }
                switch e.kind {
                case .sessionStart(let app, let device):
                    if case .string(let v)? = app?["version"] { versions.insert(v) }
                    if case .string(let i)? = device?["idiom"] { idioms.insert(i) }
                case .modalPresent(let modal, let style):
                    if let style { styles.insert(style) } else { omittedStyle = true }
                    presented.append(modal)
                    if presented.count >= 2 { sheetOverSheet = true }
                case .modalDismiss(let modal):
                    if modal == nil { dismissWithoutID = true }
                    presented = []
                case .splitSelect(_, let column, let selection):
                    columns.insert(column)
                    if selection.count >= 2 { multiSelect = true }
                    if selection.isEmpty { emptySelection = true }
                case .splitVisibility(_, let v): visibilities.insert(v)
                case .stackPop(_, let count): if count == 2 { popTwo = true }
                case .stackPush(_, let value): if value.data != nil { withData = true }
                default: break
                }
            }
        }
        #expect(styles == Set(ModalStyle.allCases))
        #expect(columns == Set(SplitColumn.allCases))
        #expect(visibilities == Set(SplitVisibility.allCases))
        #expect(scenes == ["main", "scene-2"])
        #expect(idioms == ["phone", "pad"])
        #expect(versions == Set(SampleGenerator.Options.defaultAppVersions))
        #expect(popTwo && multiSelect && emptySelection && omittedStyle && sheetOverSheet && withData && dismissWithoutID)
        #expect(withMeta > 100)
    }

    @Test func appVersionsComeFromTheOptions() {
        let generator = SampleGenerator(.init(sessions: 60, seed: 4, appVersions: ["1.0", "2.0-beta"]))
        var seen: [String: Int] = [:]
        for session in generator.sessions() {
            guard case .sessionStart(let app?, _)? = session.first(where: { _ in true })?.kind,
                  case .string(let version)? = app["version"] else {
                Issue.record("session without app.version")
                continue
            }
            seen[version, default: 0] += 1
        }
        #expect(Set(seen.keys) == ["1.0", "2.0-beta"])
        #expect(seen["2.0-beta", default: 0] > seen["1.0", default: 0])
    }

    // MARK: Deep links and funnels

    @Test func causedEventsFollowTheirURLOpen() {
        var caused = 0
        for events in Self.corpus {
            for e in events {
                guard let cause = e.cause else { continue }
                caused += 1
                #expect(cause < e.seq)
                #expect(events[cause - 1].seq == cause)
                #expect(events[cause - 1].type == "url.open")
                // Caused events come right after the link, before anything else.
                #expect(events[cause..<(e.seq - 1)].allSatisfy { $0.cause == cause })
            }
        }
        #expect(caused > 50)
    }

    @Test func funnelDropsOffAtEachStep() {
        var browse = 0, recipe = 0, cart = 0, purchase = 0
        for events in Self.corpus {
            var sawCategory = false, sawRecipe = false, sawCart = false, sawPurchase = false
            for e in events {
                switch e.kind {
                case .stackPush(_, let v): if v.type == "Category" { sawCategory = true } else if v.type == "Recipe" { sawRecipe = true }
                case .stackSet(_, let path):
                    if path.contains(where: { $0.type == "Category" }) { sawCategory = true }
                    if path.contains(where: { $0.type == "Recipe" }) { sawRecipe = true }
                case .splitSelect(_, _, let selection):
                    if selection.contains(where: { $0.type == "Category" }) { sawCategory = true }
                    if selection.contains(where: { $0.type == "Recipe" }) { sawRecipe = true }
                case .mark(let label):
                    if label == "add-to-cart" { sawCart = true }
                    if label == "purchase" { sawPurchase = true }
                default: break
                }
            }
            if sawCategory { browse += 1 }
            if sawCategory && sawRecipe { recipe += 1 }
            if sawRecipe && sawCart { cart += 1 }
            if sawCart && sawPurchase { purchase += 1 }
            // A purchase always follows an add-to-cart.
            if sawPurchase { #expect(sawCart) }
        }
        #expect(browse > recipe && recipe > cart && cart > purchase && purchase > 0)
        #expect(browse > Self.corpus.count / 2)
    }

    // MARK: Interleaving

    @Test func interleavingKeepsEachSessionsOrderAndContent() {
        let options = SampleGenerator.Options(sessions: 150, seed: 21)
        let inOrder = Self.sessions(SampleGenerator(options))
        var interleavedOptions = options
        interleavedOptions.interleave = true
        var bySession: [String: [Event]] = [:]
        var outOfOrder = 0
        var previous: Event?
        var switches = 0
        for e in SampleGenerator(interleavedOptions).events() {
            bySession[e.session, default: []].append(e)
            if let previous {
                if e.t < previous.t { outOfOrder += 1 }
                if e.session != previous.session { switches += 1 }
            }
            previous = e
        }
        #expect(bySession.count == inOrder.count)
        for events in inOrder {
            #expect(bySession[events[0].session] == events)
        }
        // Genuinely interleaved, and in time order (no slot was ever full here).
        #expect(switches > inOrder.count * 5)
        #expect(outOfOrder == 0)
    }

    @Test func interleavingHoldsAtMostLiveSessions() {
        for live in [1, 3] {
            let options = SampleGenerator.Options(sessions: 40, seed: 6, interleave: true, liveSessions: live)
            var open = Set<String>()
            var maxOpen = 0
            let generator = SampleGenerator(options)
            let lengths = Dictionary(uniqueKeysWithValues: generator.sessions().map { ($0.id, $0.eventCount) })
            var seen: [String: Int] = [:]
            for e in generator.events() {
                open.insert(e.session)
                maxOpen = max(maxOpen, open.count)
                seen[e.session, default: 0] += 1
                if seen[e.session] == lengths[e.session] { open.remove(e.session) }
            }
            #expect(maxOpen == live)
            if live == 1 {
                // One at a time is exactly the sequential output.
                var sequential = options
                sequential.interleave = false
                #expect(Self.ndjson(generator) == Self.ndjson(SampleGenerator(sequential)))
            }
        }
    }

    // MARK: Realistic state

    @Test func anomaliesAreFewAndOnlyWherePlanned() {
        let generator = SampleGenerator(.init(sessions: 200, seed: 2026))
        var total: [AnomalyKind: Int] = [:]
        var sessionsWithAnomalies = 0
        for var session in generator.sessions() {
            while session.next() != nil {}
            #expect(session.modelAnomalies == session.plannedAnomalies, "\(session.id)")
            if !session.plannedAnomalies.isEmpty { sessionsWithAnomalies += 1 }
            for (kind, n) in session.plannedAnomalies { total[kind, default: 0] += n }
        }
        #expect(Set(total.keys) == Set(AnomalyKind.allCases))
        #expect(sessionsWithAnomalies >= 6 && sessionsWithAnomalies <= 40)
        #expect(total.values.allSatisfy { $0 <= 12 })
    }

    @Test("the projection agrees with the generator's own scene model", arguments: [(1...40, 7), (20...100, 2026), (150...250, 31)])
    func projectionMatchesTheModel(lengths: ClosedRange<Int>, seed: UInt64) {
        let generator = SampleGenerator(.init(sessions: 150, seed: seed, eventsPerSession: lengths))
        for var session in generator.sessions() {
            var state = NavigationState(session: session.id)
            var anomalies: [AnomalyKind: Int] = [:]
            while let event = session.next() {
                for anomaly in state.apply(event) { anomalies[anomaly, default: 0] += 1 }
            }
            // Anomalies happen exactly where the session planned them.
            #expect(anomalies == session.plannedAnomalies, "\(session.id)")
            #expect(state.anomalies == session.plannedAnomalies, "\(session.id)")
            // The generator knew the state it was building, screen included.
            let model = session.modelScenes
            #expect(Set(state.scenes.keys) == Set(model.keys), "\(session.id)")
            for (id, scene) in state.scenes {
                #expect(scene == model[id]?.state, "\(session.id) scene \(id)")
                #expect(scene.screen == model[id]?.screen, "\(session.id) scene \(id)")
            }
        }
    }

    @Test func foldedSessionsLookLikeRealUse() {
        var screens = Set<String>()
        var endedSessions = 0
        for events in Self.corpus {
            var state = NavigationState(session: events[0].session)
            for e in events { state.apply(e) }
            if state.ended { endedSessions += 1 }
            for scene in state.scenes.values {
                screens.insert(scene.screen)
                #expect(scene.modals.count <= 3)
                #expect(scene.stacks.values.allSatisfy { $0.count <= 11 })
                #expect(scene.tabs.order.isEmpty || scene.tabs.order.count >= 4)
            }
            #expect(state.anomalies.values.reduce(0, +) <= 2)
        }
        #expect(endedSessions > Self.corpus.count * 9 / 10)
        // Sessions end all over the app, not in one place.
        #expect(screens.count > 40)
        #expect(screens.contains { $0.hasPrefix("Recipe/") } && screens.contains { $0.hasPrefix("Step/") })
    }

    @Test func onlyPlannedEventsFollowSessionEnd() {
        var afterEnd = 0, ended = 0, unended = 0
        for events in Self.corpus {
            guard let end = events.firstIndex(where: { $0.type == "session.end" }) else {
                unended += 1
                continue
            }
            ended += 1
            afterEnd += events.count - end - 1
            #expect(events.count - end - 1 <= 1)
        }
        #expect(ended > unended && unended > 0)
        #expect(afterEnd > 0 && afterEnd < 15)
    }

    // MARK: Round trip through the parser

    @Test func everyLineParsesBackToTheSameCanonicalLine() throws {
        var writer = CanonicalWriter()
        for events in Self.corpus {
            for e in events {
                writer.reset()
                writer.write(e)
                let line = writer.bytes
                let parsed = try EventParser.parse(line)
                var again = CanonicalWriter()
                again.write(parsed)
                #expect(again.bytes == line)
                #expect(parsed == e)
            }
        }
    }
}
