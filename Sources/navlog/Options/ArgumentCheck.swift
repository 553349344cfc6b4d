// Options/: Options shared by commands, and the checks of the command line around argument-parser's own.

import ArgumentParser

/// What the command line is checked for around argument-parser's own
/// parsing: a negative number after an option is given to the option (the
/// parser would read `-5m` as an option name), and a usage error is told as
/// its first cause — a mistyped command or option — with a suggestion.
enum ArgumentCheck {
    /// `--within -5m` becomes `--within=-5m`, so that the option gets the
    /// value and says what is wrong with it ("must be positive"). A word
    /// that starts with `-` and a digit or `.` is never an option of navlog.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(arguments.count)
        var ended = false
        for argument in arguments {
            if !ended, isNegativeNumber(argument), let option = out.last,
               option.hasPrefix("--"), option.count > 2, !option.contains("=") {
                out[out.count - 1] = option + "=" + argument
                continue
            }
            if argument == "--" { ended = true }
            out.append(argument)
        }
        return out
    }

    private static func isNegativeNumber(_ word: String) -> Bool {
        let utf8 = Array(word.utf8.prefix(2))
        return utf8.count == 2 && utf8[0] == UInt8(ascii: "-")
            && (utf8[1] == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[1]))
    }

    /// The first mistake in `arguments` (without the program name) that
    /// argument-parser reports late or not at all: `navlog help nope`, a
    /// mistyped subcommand (`navlog stat`), or an unknown option that a
    /// `validate()` error would hide (`navlog funnel x --stpe a`).
    static func mistake(_ arguments: [String]) -> String? {
        var command: any ParsableCommand.Type = NavLog.self
        var words = arguments[...]
        if words.first == "help" {
            words = words.dropFirst()
            for word in words {
                guard let sub = subcommand(command, named: word) else {
                    return "no command '\(word)'" + suggestion(word, among: subcommandNames(command))
                }
                command = sub
            }
            return nil
        }
        while let word = words.first, let sub = subcommand(command, named: word) {
            command = sub
            words = words.dropFirst()
        }
        let names = subcommandNames(command)
        if !names.isEmpty, let word = words.first, !word.hasPrefix("-") {
            let parent = (["navlog"] + arguments.prefix(arguments.count - words.count)).joined(separator: " ")
            return "'\(word)' is not a command of \(parent)" + suggestion(word, among: names)
        }
        let known = longOptions(command)
        for word in words {
            if word == "--" { break }
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let name = String(word.split(separator: "=", maxSplits: 1)[0])
            if !known.contains(name) {
                return "Unknown option '\(name)'." + suggestion(name, among: known, sentence: true)
            }
        }
        return nil
    }

    private static func subcommand(_ command: any ParsableCommand.Type, named name: String) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { $0.configuration.commandName == name }
    }

    private static func subcommandNames(_ command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The long options a command's help lists (its usage and OPTIONS).
    private static func longOptions(_ command: any ParsableCommand.Type) -> [String] {
        let help = command.helpMessage(columns: 10_000)
        guard let usage = help.firstRange(of: "USAGE:") else { return [] }
        var names: Set<String> = ["--help", "--version"]
        for token in help[usage.lowerBound...].split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) {
            if token.hasPrefix("--"), token.count > 2 { names.insert(String(token)) }
        }
        return names.sorted()
    }

    /// ", did you mean 'state'?" for the closest name within two edits
    /// (or one that starts with `word`), else "".
    private static func suggestion(_ word: String, among names: [String], sentence: Bool = false) -> String {
        let scored = names.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 || (word.count >= 3 && best.0.hasPrefix(word))
        else { return "" }
        return sentence ? " Did you mean '\(best.0)'?" : "; did you mean '\(best.0)'?"
    }

    /// Levenshtein distance between two words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
