import Foundation
import NavLogCore
import Testing
import NavLogTestSupport

/// The JSON Schemas of docs/events.md and docs/state.md (`schemas/`), checked with
/// `tools/check-schemas` against the examples, the real parser and writer, and
/// the real `navlog state` output.
@Suite("JSON Schemas")
struct SchemaTests {
    static let checker = repositoryRoot.appendingPathComponent("tools/check-schemas").path
    static let examples = repositoryRoot.appendingPathComponent("schemas/examples")

    static func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

    /// The non-blank lines of an example file.
    static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: example(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    static func isStateRestore(_ line: String) -> Bool { line.contains(#""type":"state.restore""#) }

    /// Runs the checker; records a failure (with its output) when the status is not `expected`.
    @discardableResult
    static func check(_ args: [String], stdin: Data? = nil, expect expected: Int32 = 0,
                      sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let result = run(checker, args, stdin: stdin)
        #expect(result.status == expected,
                "tools/check-schemas \(args.joined(separator: " ")) exited \(result.status)\n\(result.stdout)\(result.stderr)",
                sourceLocation: sourceLocation)
        return result.stdout
    }

    // MARK: The schemas and their examples

    @Test func schemasAreValidDraft202012() throws {
        let out = Self.check(["schemas"])
        let schemas = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("schemas").path)
            .filter { $0.hasSuffix(".schema.json") }
        #expect(schemas.count >= 3)
        #expect(out.contains("\(schemas.count) schemas valid"))
    }

    @Test func validEventsPass() throws {
        let out = Self.check(["event", Self.example("events-valid.ndjson")])
        #expect(out.contains("\(try Self.lines("events-valid.ndjson").count) lines valid"))
    }

    @Test func everyKindHasAValidExample() throws {
        let kinds = try Self.lines("events-valid.ndjson").map { try EventParser.parse($0).type }
        let required = [
            "session.start", "session.end", "scene.open", "scene.close", "tabs.define", "tabs.customize", "tab.select",
            "tab.visibility", "stack.push", "stack.pop", "stack.popToRoot", "stack.set", "split.select",
            "split.visibility", "modal.present", "modal.dismiss", "url.open", "state.restore",
            "layout.change", "mark",
        ]
        for kind in required { #expect(kinds.contains(kind), "no valid example of \(kind)") }
        #expect(kinds.contains { !required.contains($0) }, "no valid example of an unknown kind")
    }

    @Test func everyInvalidEventIsRejectedForItsReason() throws {
        let out = Self.check([
            "--expect-invalid", "--reasons", Self.example("events-invalid.reasons"),
            "event", Self.example("events-invalid.ndjson"),
        ])
        #expect(out.contains("\(try Self.lines("events-invalid.ndjson").count) lines rejected as expected"))
    }

    @Test func canonicalExamplesPassBothForms() {
        Self.check(["canonical", Self.example("events-canonical.ndjson")])
        Self.check(["event", Self.example("events-canonical.ndjson")])
    }

    @Test func inputFormIsNotCanonical() {
        Self.check(["--expect-invalid", "canonical", Self.example("events-valid.ndjson")])
    }

    @Test func everyNonCanonicalLineIsRejectedForItsReason() {
        Self.check([
            "--expect-invalid", "--reasons", Self.example("canonical-invalid.reasons"),
            "canonical", Self.example("canonical-invalid.ndjson"),
        ])
    }

    @Test(arguments: ["state-contract.json", "state-empty.json", "state-multi-scene.json"])
    func stateExamplesPass(file: String) {
        let out = Self.check(["state", Self.example(file)])
        #expect(out.contains("1 document valid"))
    }

    @Test func everyInvalidStateIsRejectedForItsReason() {
        Self.check([
            "--expect-invalid", "--reasons", Self.example("state-invalid.reasons"),
            "--ndjson", "state", Self.example("state-invalid.ndjson"),
        ])
    }

    /// The checker itself can say no: exit 1 with `file:line:` messages, 2 on usage errors.
    @Test func checkerReportsFailuresAndUsageErrors() throws {
        let line = try Self.lines("events-valid.ndjson")[0]
        let accepted = run(Self.checker, ["--expect-invalid", "event", "-"], stdin: Data((line + "\n").utf8))
        #expect(accepted.status == 1)
        #expect(accepted.stdout.hasPrefix("<stdin>:1: accepted"))
        let rejected = run(Self.checker, ["event", "-"], stdin: Data("\n{\"session\":\"\"}\n".utf8))
        #expect(rejected.status == 1)
        #expect(!rejected.stdout.isEmpty && rejected.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("<stdin>:2: ") })
        #expect(run(Self.checker, ["event"]).status == 2)
        #expect(run(Self.checker, ["event", "/nonexistent/events.ndjson"]).status == 2)
        #expect(run(Self.checker, ["bogus", "-"], stdin: Data()).status == 2)
    }

    // MARK: Agreement with the real parser and writer

    /// Parses and sequences lines as `navlog ingest` would; returns canonical lines.
    static func canonicalLines(_ lines: [String]) throws -> [String] {
        var sequencer = Sequencer()
        var writer = CanonicalWriter()
        return try lines.map { line in
            var event = try EventParser.parse(line)
            try sequencer.accept(&event)
            writer.reset()
            writer.write(event)
            return writer.string
        }
    }

    @Test func parserAcceptsTheValidExamplesAndWritesTheCanonicalExamples() throws {
        let input = try Self.lines("events-valid.ndjson")
        let expected = try Self.lines("events-canonical.ndjson")
        try #require(input.count == expected.count)
        let written = try Self.canonicalLines(input)
        var checked: [String] = []
        for (k, line) in written.enumerated() where !Self.isStateRestore(input[k]) {
            #expect(line == expected[k], "events-valid.ndjson:\(k + 1)")
            checked.append(line)
        }
        #expect(checked.count >= 20, "only \(checked.count) lines compared")
        Self.check(["canonical", "-"], stdin: Data(checked.map { $0 + "\n" }.joined().utf8))
    }

    @Test func parserRejectsTheInvalidExamples() throws {
        let invalid = try Self.lines("events-invalid.ndjson").enumerated().filter { !Self.isStateRestore($0.element) }
        #expect(invalid.count >= 50, "only \(invalid.count) invalid examples")
        for (k, line) in invalid {
            #expect(throws: EventParseError.self, "events-invalid.ndjson:\(k + 1) was accepted") {
                try EventParser.parse(line)
            }
        }
    }

    @Test
    func parserAgreesOnStateRestore() throws {
        let input = try Self.lines("events-valid.ndjson")
        let expected = try Self.lines("events-canonical.ndjson")
        let written = try Self.canonicalLines(input)
        try #require(written.count == expected.count)
        let restores = input.indices.filter { Self.isStateRestore(input[$0]) }
        #expect(!restores.isEmpty, "events-valid.ndjson has no state.restore")
        for k in restores {
            #expect(written[k] == expected[k], "events-valid.ndjson:\(k + 1)")
        }
        Self.check(["canonical", "-"], stdin: Data(written.map { $0 + "\n" }.joined().utf8))
        let invalidRestores = try Self.lines("events-invalid.ndjson").enumerated().filter { Self.isStateRestore($0.element) }
        #expect(!invalidRestores.isEmpty, "events-invalid.ndjson has no state.restore")
        for (k, line) in invalidRestores {
            #expect(throws: EventParseError.self, "events-invalid.ndjson:\(k + 1) was accepted") {
                try EventParser.parse(line)
            }
        }
    }

    // MARK: The real `navlog state`

    @Test(
          arguments: ["0", "1", "20", "31", "2026-11-20T10:00:05.000Z", "end"])
    func stateCommandPrintsSchemaValidJSON(at spec: String) {
        let binary = navlogBinary()
        let result = run(binary, ["state", Self.example("events-valid.ndjson"), "--at", spec, "--json"])
        #expect(result.status == 0, "\(binary) state --at \(spec) --json: \(result.stderr)")
        Self.check(["state", "-"], stdin: Data(result.stdout.utf8))
    }
}
