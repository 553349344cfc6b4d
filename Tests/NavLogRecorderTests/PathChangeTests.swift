import NavLogCore
import NavLogRecorder
import Testing

private let a = RouteValue(type: "Category", id: "desserts")
private let b = RouteValue(type: "Recipe", id: "apple-pie")
private let c = RouteValue(type: "Step", id: "3")
private let d = RouteValue(type: "Timer")
private let e = RouteValue(type: "Recipe", id: "crumble")

@Suite("Recorder path diffing")
struct PathChangeTests {
    @Test func equalPathsRecordNothing() {
        #expect(PathChange(from: [], to: []) == nil)
        #expect(PathChange(from: [a, b], to: [a, b]) == nil)
    }

    @Test func oneAppendedValueIsAPush() {
        #expect(PathChange(from: [], to: [a]) == .push(a))
        #expect(PathChange(from: [a, b], to: [a, b, c]) == .push(c))
    }

    @Test func cutShortIsOnePopWithItsCount() {
        #expect(PathChange(from: [a, b, c], to: [a, b]) == .pop(count: 1))
        #expect(PathChange(from: [a, b, c, d], to: [a]) == .pop(count: 3))
    }

    @Test func cutToEmptyIsPopToRoot() {
        #expect(PathChange(from: [a, b, c], to: []) == .popToRoot)
        #expect(PathChange(from: [a], to: []) == .popToRoot)
    }

    @Test func replacedOrSeveralAppendedIsOneSet() {
        #expect(PathChange(from: [a, b], to: [a, e]) == .set([a, e]))
        #expect(PathChange(from: [a, b, c], to: [a, e, c, d]) == .set([a, e, c, d]))
        #expect(PathChange(from: [a, b, c], to: [a, b, c, d, e]) == .set([a, b, c, d, e]))
        #expect(PathChange(from: [], to: [a, b]) == .set([a, b]))
        // Same type, different id, and a value differing only in data, are different values.
        let withData = RouteValue(type: "Timer", data: .object(["minutes": .number("5")]))
        #expect(PathChange(from: [a, d], to: [a, withData]) == .set([a, withData]))
    }

    /// Each change, applied by the real projection, gives exactly the new path.
    @Test func everyChangeReplaysToTheNewPath() {
        let paths: [[RouteValue]] = [[], [a], [a, b], [a, b, c], [a, b, c, d, e], [a, e], [a, e, c], [], [b], [b, a, c, d], [b]]
        var state = NavigationState(session: "s-1")
        var seq = 0
        for (old, new) in zip(paths, paths.dropFirst()) {
            guard let change = PathChange(from: old, to: new) else { continue }
            seq += 1
            _ = state.apply(Event(session: "s-1", seq: seq, t: Timestamp(milliseconds: 0), kind: change.kind(stack: "home")))
            #expect(state.scenes["main"]?.stacks["home"] == new, "\(old) → \(new)")
        }
        #expect(seq == paths.count - 1, "every step changes the path, so each gives a change")
    }
}

private struct Recipe: Identifiable, Encodable {
    var id: String
    var servings: Int
}

@Suite("Recorder route values")
struct RouteValueConversionTests {
    @Test func identifiableAndEncodableValuesBecomeRouteValues() throws {
        let pie = Recipe(id: "apple-pie", servings: 4)
        #expect(RouteValue(identifying: pie) == RouteValue(type: "Recipe", id: "apple-pie"))
        #expect(try RouteValue(encoding: pie) == RouteValue(
            type: "Recipe", id: "apple-pie",
            data: .object(["id": .string("apple-pie"), "servings": .number("4")])))
    }
}
