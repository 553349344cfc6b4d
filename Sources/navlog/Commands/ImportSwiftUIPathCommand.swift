#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import swiftui-path`: a NavigationPath.CodableRepresentation as a `stack.set`.
struct ImportSwiftUIPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftui-path",
        abstract: "Import a SwiftUI NavigationPath.CodableRepresentation as the stack's state.",
        discussion: """
            Each input is one JSON array of strings, [tag_n, value_n, ..., tag_1, value_1] with the \
            top of the stack first (what an app keeps in @SceneStorage). It becomes one stack.set \
            of --stack in the session: each value's type is the tag's short name (MyApp.Recipe \
            and mangled 5MyApp6RecipeV both give Recipe), its id the element's id field or the \
            scalar itself, its data {"swiftType": tag, "value": element}. `navlog export \
            swiftui-path` writes it back.

            Example:
              navlog import swiftui-path path.json --store logs --stack home \\
                  --session s-1 --time 2026-11-20T10:00:00Z
            """
    )

    @OptionGroup var options: StoreWriteOptions

    @Option(help: ArgumentHelp("The stack the path is set on.", valueName: "stack"))
    var stack: String

    @Option(help: ArgumentHelp("The session (default: the input's file name without its extension).", valueName: "id"))
    var session: String?

    @Option(help: ArgumentHelp("When (RFC 3339; default: the file's modification time, so that importing it again stores nothing; now for standard input).",
                               valueName: "time"))
    var time: String?

    @Option(help: ArgumentHelp("The scene (default: main).", valueName: "scene"))
    var scene: String?

    func validate() throws {
        if session == nil, options.inputs.contains("-") { throw ValidationError("reading standard input needs --session") }
        if session == "" { throw ValidationError("--session must not be empty") }
        if let time, Timestamp(rfc3339: time) == nil { throw ValidationError("--time: \(Timestamp.refusal(rfc3339: time))") }
    }

    func run() throws {
        let given = time.flatMap { Timestamp(rfc3339: $0) }
        let stack = self.stack, scene = self.scene, session = self.session
        try options.run { (importer, _, onReject, _) throws(StoreImporter.Failure) in
            try importer.importDocuments(paths: options.inputs, expected: Self.expected, convert: { (file, bytes) throws(EventParseError) in
                let routes = try SwiftUIPathCodec.decode(try Self.document(bytes))
                let t = given ?? FileIdentity.modificationMilliseconds(path: file).map { Timestamp(milliseconds: $0) } ?? Self.now()
                return [Event(session: session ?? Self.sessionName(of: file), t: t, scene: scene,
                              kind: .stackSet(stack: stack, path: routes))]
            }, onReject: onReject)
        }
    }

    /// What a file holds, for a file that holds something else.
    static let expected = "a NavigationPath.CodableRepresentation (one JSON array of type-name and JSON strings a file)"

    /// The file's JSON, when it is one array; else what it is instead.
    static func document(_ bytes: UnsafeRawBufferPointer) throws(EventParseError) -> JSONValue {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch {
            if case .invalidJSON(_, let reason) = error, reason.hasSuffix("expected end of input") {
                throw .notADocument(expected: expected, reason: "more than one JSON value (NDJSON is read by 'navlog ingest')")
            }
            throw .notADocument(expected: expected, reason: error.description)
        }
        guard case .array = json else { throw .notADocument(expected: expected, reason: "a JSON \(json.typeName)") }
        return json
    }

    /// The file name without directory and extension.
    static func sessionName(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name.isEmpty ? path : name
    }

    static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }
}
