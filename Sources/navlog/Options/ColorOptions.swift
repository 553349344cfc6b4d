import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When to colour the readable output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// On a terminal, unless `NO_COLOR` is set (no-color.org) or `TERM` is `dumb`.
    case auto
    case always
    case never
}

/// `--color auto|always|never`, shared by every command that colours.
struct ColorOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never.", valueName: "when"))
    var color: ColorChoice = .auto
}

/// A command whose readable output may be coloured.
protocol ColoringCommand {
    var colorOptions: ColorOptions { get }
}

extension StateCommand: ColoringCommand {}
extension ReplayCommand: ColoringCommand {}
extension DiffCommand: ColoringCommand {}
extension BisectCommand: ColoringCommand {}
extension BlameCommand: ColoringCommand {}
extension FunnelCommand: ColoringCommand {}
extension PathsCommand: ColoringCommand {}

extension Output {
    /// The `--color` of the command that runs (set once, before it runs).
    nonisolated(unsafe) static var colorChoice: ColorChoice = .auto

    /// Whether standard output gets colour: `--color`, else a terminal
    /// without `NO_COLOR` and with a `TERM` other than `dumb`.
    static var usesColor: Bool {
        switch colorChoice {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
            let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
            return isTerminal && !noColor && !dumb
        }
    }
}
