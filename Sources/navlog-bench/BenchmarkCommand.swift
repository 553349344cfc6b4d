#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line of `navlog-bench`: picks suites, prints the machine, runs them.
enum BenchmarkCommand {
    /// Runs `<suite>|all [options]`; returns the exit status.
    static func run(arguments: [String], suites: [BenchmarkSuite]) -> Int32 {
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            print(usage(suites))
            return arguments.isEmpty ? 2 : 0
        }
        let chosen = name == "all" ? suites : suites.filter { $0.name == name }
        guard !chosen.isEmpty else {
            printError("navlog-bench: no suite named '\(name)'\n\n" + usage(suites))
            return 2
        }
        // `navlog-bench SUITE --help` shows that suite's options; it starts nothing.
        if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
            print(usage(chosen))
            return 0
        }
        let options: BenchmarkOptions
        do { options = try BenchmarkOptions(parsing: Array(arguments.dropFirst())) } catch {
            printError("navlog-bench: \(error)")
            return 2
        }
        let unknown = options.unknown(to: chosen)
        guard unknown.isEmpty else {
            printError("navlog-bench: \(name) has no option " + unknown.map { "--" + $0 }.joined(separator: ", ") + "\n\n" + usage(chosen))
            return 2
        }
        print("navlog-bench \(arguments.joined(separator: " "))")
        print("machine: \(Machine.description)")
        print("date: \(Machine.utcDate)")
        print("runs per figure: \(options.runs) (medians reported)")
        for suite in chosen {
            print("\n## \(suite.name): \(suite.summary)\n")
            do { try suite.run(options) } catch {
                printError("navlog-bench \(suite.name): \(error)")
                return 1
            }
        }
        return 0
    }

    static func usage(_ suites: [BenchmarkSuite]) -> String {
        var text = """
            usage: navlog-bench <suite>|all [--runs N] [--seed S] [suite options]

            Build in release mode: swift run -c release navlog-bench all

            suites:
            """
        let width = suites.map(\.name.count).max() ?? 0
        for suite in suites {
            text += "\n  " + suite.name.padding(width) + "  " + suite.summary
            for option in suite.options { text += "\n  " + "".padding(width) + "    " + option }
        }
        return text
    }
}

func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

extension String {
    /// Pads with spaces on the right to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Pads with spaces on the left to `width` characters.
    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
