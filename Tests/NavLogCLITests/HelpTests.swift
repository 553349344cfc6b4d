import Testing

/// Every command explains itself: `--help` on stdout with an example, exit 0;
/// shell completions come from swift-argument-parser.
@Suite("Help and completions")
struct HelpTests {
    /// Every subcommand the root lists.
    static func commands() -> [String] {
        let help = navlog("--help").stdout
        guard let start = help.range(of: "SUBCOMMANDS:") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            // "  name   abstract"; wrapped abstract lines are indented further.
            guard line.hasPrefix("  "), !line.dropFirst(2).hasPrefix(" "), let word = trimmed.split(separator: " ").first else { return nil }
            guard word != "help", word.allSatisfy({ $0.isLowercase || $0 == "-" }) else { return nil }
            return String(word)
        }
    }

    @Test func theRootListsTheContractsCommands() {
        let listed = Set(Self.commands())
        for command in ["state", "append", "cat", "info", "verify", "repair", "replay", "ingest", "diff", "bisect", "blame", "funnel", "export", "paths", "import"] {
            #expect(listed.contains(command), "navlog --help does not list \(command)")
        }
    }

    @Test func everyCommandsHelpHasAnExample() {
        let commands = Self.commands()
        #expect(commands.count >= 7)
        for command in commands {
            let r = navlog(command, "--help")
            #expect(r.status == 0, "\(command) --help")
            #expect(r.stderr == "", "\(command) --help")
            #expect(r.stdout.contains("Example"), "navlog \(command) --help has no example")
            #expect(r.stdout.contains("navlog \(command)"), "navlog \(command) --help shows no invocation")
            // Examples fit 80 columns: a wrapped one would paste as two broken commands.
            let examples = r.stdout.components(separatedBy: "USAGE:")[0].components(separatedBy: "Example").dropFirst().joined()
            for line in examples.split(separator: "\n").dropFirst() where !line.isEmpty {
                #expect(line.hasPrefix("  "), "navlog \(command) --help: an example wraps at \(line)")
            }
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) {
        let r = navlog("--generate-completion-script", shell)
        #expect(r.status == 0)
        #expect(r.stdout.contains("state"))
        #expect(r.stdout.contains(shell == "fish" ? "-l 'at'" : "--at"))
    }

    /// Logs and inputs complete as file names, `--store` as a directory,
    /// options with a fixed set of values as those values.
    @Test func completionsOfferFilesDirectoriesAndChoices() {
        let bash = navlog("--generate-completion-script", "bash").stdout
        let replay = bash.components(separatedBy: "_navlog_replay() {").last ?? ""
        #expect(replay.prefix(1200).contains("__navlog_add_completions -f"))
        #expect(bash.contains("'--store')\n        __navlog_add_completions -d"))
        let zsh = navlog("--generate-completion-script", "zsh").stdout
        #expect(zsh.contains("':log:_files'"))
        #expect(zsh.contains(":dir:_files -/'"))
        let fish = navlog("--generate-completion-script", "fish").stdout
        #expect(fish.contains("-l 'align' -d 'Compare by event position (default) or by seq.' -rfka 'position seq'"))
        #expect(fish.contains("-l 'format'") && fish.contains("'table csv json svg'"))
        #expect(fish.contains("__navlog_should_offer_completions_for_positional \"navlog replay\" -eq 1' -F"))
    }
}
