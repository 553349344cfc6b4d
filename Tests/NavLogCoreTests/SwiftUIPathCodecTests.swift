import NavLogCore
import NavLogSample
import Testing

@Suite("Import: SwiftUI NavigationPath.CodableRepresentation")
struct SwiftUIPathCodecTests {
    @Test func thePublishedExampleDecodesBottomFirst() throws {
        let text = importFixture("swiftui-path.json").split(separator: "\n").joined()
        let path = try SwiftUIPathCodec.decode(text)
        #expect(path.map(\.screenName) == ["String/hello", "Int/42", "Bool/true", "User/42"])
        #expect(path[3].data == .object(["swiftType": .string("User"),
                                          "value": .object(["id": .number("42"), "name": .string("Blob")])]))
        #expect(path[0].data == .object(["swiftType": .string("Swift.String"), "value": .string("hello")]))
        #expect(path[1].data == .object(["swiftType": .string("Swift.Int"), "value": .number("42")]))
        // And back, exactly as SwiftUI wrote it.
        #expect(SwiftUIPathCodec.encode(path).canonicalText == text)
    }

    @Test func mangledAndQualifiedTags() throws {
        #expect(SwiftUIPathCodec.shortName(of: "Si") == "Int")
        #expect(SwiftUIPathCodec.shortName(of: "SS") == "String")
        #expect(SwiftUIPathCodec.shortName(of: "5MyApp6RecipeV") == "Recipe")
        #expect(SwiftUIPathCodec.shortName(of: "5MyApp8Category4KindO") == "Kind")
        #expect(SwiftUIPathCodec.shortName(of: "MyApp.Recipe") == "Recipe")
        #expect(SwiftUIPathCodec.shortName(of: "Recipe") == "Recipe")
        let path = try SwiftUIPathCodec.decode(#"["5MyApp6RecipeV","{\"id\":\"apple-pie\"}","Si","7"]"#)
        #expect(path.map(\.screenName) == ["Int/7", "Recipe/apple-pie"])
        #expect(SwiftUIPathCodec.encode(path).canonicalText == #"["5MyApp6RecipeV","{\"id\":\"apple-pie\"}","Si","7"]"#)
        #expect(try SwiftUIPathCodec.decode("[]") == [])
    }

    /// navlog → export → import: the same screens; and import → export → import is exact.
    @Test func generatedStacksRoundTrip() throws {
        let generator = SampleGenerator(SampleGenerator.Options(sessions: 20, seed: 11))
        var checked = 0
        for session in generator.sessions() {
            let state = NavigationState(session: session.id, folding: Array(session))
            for (_, scene) in state.scenes {
                for (_, stack) in scene.stacks where !stack.isEmpty {
                    let exported = SwiftUIPathCodec.encode(stack)
                    let imported = try SwiftUIPathCodec.decode(exported)
                    #expect(imported.map(\.screenName) == stack.map(\.screenName))
                    #expect(imported.map(\.type) == stack.map(\.type))
                    let again = try SwiftUIPathCodec.decode(SwiftUIPathCodec.encode(imported).canonicalText)
                    #expect(again == imported)
                    checked += 1
                }
            }
        }
        #expect(checked > 20)
    }

    @Test(arguments: [
        (#"{"a":1}"#, #"field "(top level)": expected array of strings, found object"#),
        (#"["Swift.Int"]"#, #"field "(top level)": 1 strings, expected tag/value pairs (an even count)"#),
        (#"["Swift.Int",42]"#, #"field "[1]": expected string (an element's JSON), found number"#),
        (#"[1,"42"]"#, #"field "[0]": expected string (a type tag), found number"#),
        (#"["","42"]"#, #"field "[0]": empty type tag"#),
        (#"["A","1","Swift.Int","{oops"]"#, #"field "[3]": not JSON (invalid JSON at byte 1: unexpected 'o', expected a string)"#),
        (#"["Swift.Int","42""#, "invalid JSON at byte 17: unexpected end of line, expected ',' or ']'"),
    ])
    func malformedRepresentationsAreRejected(input: String, reason: String) {
        #expect(throws: EventParseError.self) { try SwiftUIPathCodec.decode(input) }
        do { _ = try SwiftUIPathCodec.decode(input) } catch { #expect(error.description == reason) }
    }
}
