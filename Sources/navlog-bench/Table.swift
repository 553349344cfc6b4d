/// A plain-text table of figures, printed with aligned columns.
struct Table {
    let columns: [String]
    private var rows: [[String]] = []

    init(_ columns: String...) { self.columns = columns }
    init(_ columns: [String]) { self.columns = columns }

    mutating func add(_ cells: String...) { rows.append(cells) }
    mutating func add(_ cells: [String]) { rows.append(cells) }

    /// Prints the table as Markdown (pastes into the README as is).
    func print() {
        let all = [columns] + rows
        var widths = [Int](repeating: 0, count: columns.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { i, cell in
                i == 0 ? cell.padding(widths[i]) : cell.leftPadding(widths[i])
            }.joined(separator: " | ") + " |"
        }
        Swift.print(line(columns))
        Swift.print("|" + widths.enumerated().map { i, w in
            i == 0 ? String(repeating: "-", count: w + 2) : String(repeating: "-", count: w + 1) + ":"
        }.joined(separator: "|") + "|")
        for row in rows { Swift.print(line(row)) }
        Swift.print("")
    }
}

/// `value` with `digits` decimals.
func format(_ value: Double, digits: Int = 1) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if text.contains("e") { return text }
    if digits == 0 { return String(text.prefix { $0 != "." }) }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    text = String(parts[0]) + "." + fraction + String(repeating: "0", count: max(0, digits - fraction.count))
    return text
}

/// A rate per second, scaled: `3.41M/s`, `812k/s`.
func rate(_ perSecond: Double) -> String {
    if perSecond >= 1e6 { return format(perSecond / 1e6, digits: 2) + "M/s" }
    if perSecond >= 1e3 { return format(perSecond / 1e3, digits: 0) + "k/s" }
    return format(perSecond, digits: 0) + "/s"
}

/// Bytes per second as MB/s (10^6).
func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> String {
    format(Double(bytes) / seconds / 1e6, digits: 0) + " MB/s"
}

/// Bytes as MB (10^6) or MiB for memory.
func megabytes(_ bytes: Int) -> String { format(Double(bytes) / 1e6, digits: 1) + " MB" }
func mebibytes(_ bytes: Int) -> String { format(Double(bytes) / 1048576, digits: 1) + " MiB" }

/// Seconds as milliseconds.
func milliseconds(_ seconds: Double) -> String { format(seconds * 1e3, digits: 1) + " ms" }

/// `a / b` as `4.2×`.
func ratio(_ a: Double, _ b: Double) -> String { format(a / b, digits: 2) + "×" }
