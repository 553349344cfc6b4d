import ArgumentParser

/// `navlog export …`: a command group. (On this branch it holds only
/// `swiftui-path`; the analytics branch's group adds `screens` and `events` —
/// merging takes theirs and adds `ExportSwiftUIPathCommand.self` to its list.)
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions in other tools' shapes.",
        discussion: """
            Example:
              navlog export swiftui-path s-1.navlog --stack home > path.json
            """,
        subcommands: [ExportSwiftUIPathCommand.self]
    )
}
