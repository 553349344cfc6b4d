/// The options of a `navlog-bench` run: `--name value` pairs, read by the
/// suites that understand them.
///
/// Common ones: `--runs N` (timed runs per figure; the median is reported),
/// `--seed S` (the sample generator's seed).
struct BenchmarkOptions {
    private var values: [String: String] = [:]

    /// Parses `--name value` pairs; a bare `--name` is `true`.
    init(parsing arguments: [String]) throws(BenchmarkFailure) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw BenchmarkFailure("unexpected argument '\(argument)'")
            }
            let name = String(argument.dropFirst(2))
            if i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") {
                values[name] = arguments[i + 1]
                i += 2
            } else {
                values[name] = "true"
                i += 1
            }
        }
    }

    /// Timed runs per figure (default 5).
    var runs: Int { (try? int("runs", default: 5)).map { max(1, $0) } ?? 5 }
    /// The generator seed (default 7).
    var seed: UInt64 { UInt64(values["seed"] ?? "") ?? 7 }

    /// An integer option; `1M`, `10M`, `500k` are accepted too.
    func int(_ name: String, default fallback: Int) throws(BenchmarkFailure) -> Int {
        guard let text = values[name] else { return fallback }
        var digits = Substring(text.lowercased().replacingOccurrences(of: "_", with: ""))
        var scale = 1
        if digits.hasSuffix("m") { scale = 1_000_000; digits = digits.dropLast() }
        else if digits.hasSuffix("k") { scale = 1_000; digits = digits.dropLast() }
        guard let value = Int(digits), value >= 0 else {
            throw BenchmarkFailure("--\(name) takes a number, got '\(text)'")
        }
        return value * scale
    }

    /// A string option.
    func string(_ name: String) -> String? { values[name] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { values[name] == "true" }

    /// The options given that none of `suites` names in its usage (nor
    /// `--runs` or `--seed`), sorted: a typo is refused, not ignored.
    func unknown(to suites: [BenchmarkSuite]) -> [String] {
        var known: Set<String> = ["runs", "seed"]
        for line in suites.flatMap(\.options) {
            for word in line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) where word.hasPrefix("--") {
                known.insert(String(word.dropFirst(2)))
            }
        }
        return values.keys.filter { !known.contains($0) }.sorted()
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
