import Foundation
import Testing
import NavLogTestSupport

/// The README works when pasted: every command of its shell blocks (the
/// tour, the imports, the store), in order, in one shell started at the
/// repository's root, exits 0. The tour itself moves into a new empty
/// directory, so each file it reads is shipped in `tools/samples/` or made
/// by an earlier line.
///
/// Left out: `swift build` (the test runs the binary already built, put in
/// place of the README's `alias`), `tools/spark-funnel` (a JVM start takes
/// tens of seconds; the Spark suite runs it on the same kind of export),
/// and the blocks that install completions or name `tools/demo`/`tools/test`.
@Suite struct ReadmeTourTests {
    /// The README's commands, in order: the `sh` blocks but the two left out,
    /// continuation lines (`\`) joined, comments and blank lines dropped.
    static func commands(_ readme: String) -> [String] {
        var commands: [String] = []
        for block in readme.components(separatedBy: "```sh\n").dropFirst() {
            let body = block.components(separatedBy: "```")[0]
            if body.contains("tools/demo") || body.contains("--generate-completion-script") { continue }
            var pending = ""
            for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasSuffix("\\") {
                    pending += line.dropLast() + " "
                    continue
                }
                let command = pending + line
                pending = ""
                let trimmed = command.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                commands.append(command)
            }
        }
        return commands
    }

    @Test func everyCommandOfTheReadmeRunsInOrder() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.commands(readme)
        #expect(commands.contains { $0.hasPrefix("alias navlog=") } && commands.contains { $0.hasPrefix("cd \"$(mktemp -d)\"") })
        #expect(commands.count > 50, "\(commands.count) commands found")
        let temporary = try TemporaryDirectory()
        var script = ""
        for (n, command) in commands.enumerated() {
            if command.hasPrefix("swift build") || command.contains("tools/spark-funnel") { continue }
            if command.hasPrefix("alias navlog=") {
                script += "navlog() { \"\(navlogBinary())\" \"$@\"; }\n"
                continue
            }
            script += command + "\n"
            script += "status=$?; [ $status -eq 0 ] || echo \"README command \(n) exited $status\" >&2\n"
        }
        // mktemp -d makes the tour's directory inside this test's own.
        let r = run("/bin/sh", ["-c", "cd \"$1\" && eval \"$2\"", "sh", repositoryRoot.path, script],
                    environment: ["TMPDIR": temporary.path])
        let failed = r.stderr.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("README command "), let n = Int(line.split(separator: " ")[2]) else { return nil }
            return "\(line): \(commands[n])"
        }
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))\n\(r.stderr.suffix(2000))")
        #expect(!r.stdout.isEmpty)
    }
}
