import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog info LOG`: what a log holds and how it is stored (contract §4).
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a log's events, seq and time range, sizes, compression, blocks and checkpoints.",
        discussion: """
            Reads only the index (the footer of a closed log); no event is decompressed.

            Example:
              navlog info s-1.navlog
            """
    )

    @Argument(help: "The .navlog file.", completion: .file())
    var log: String

    func run() throws {
        let reader: LogReader
        do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
        let blocks = reader.blocks
        let session = (try? reader.session()) ?? nil
        let contentBytes = blocks.reduce(0) { $0 + $1.contentSize } + reader.tailContentBytes
        var minT = blocks.map(\.minT).min()
        var maxT = blocks.last?.runningMaxT
        if let tail = reader.tailRange {
            minT = min(minT ?? tail.lowerBound, tail.lowerBound)
            maxT = max(maxT ?? tail.upperBound, tail.upperBound)
        }
        var lines: [(String, String)] = []
        lines.append(("file", log))
        lines.append(("format", "\(reader.header.majorVersion).\(reader.header.minorVersion)"))
        lines.append(("session", session.map(ReadableText.name) ?? "-"))
        lines.append(("events", String(reader.eventCount)))
        lines.append(("seq", reader.firstSeq.map { "\($0)…\(reader.lastSeq!)" } ?? "-"))
        if let minT, let maxT {
            lines.append(("time", "\(Timestamp(milliseconds: minT).rfc3339) … \(Timestamp(milliseconds: maxT).rfc3339)"))
        } else {
            lines.append(("time", "-"))
        }
        lines.append(("file bytes", String(reader.fileSize)))
        lines.append(("content bytes", String(contentBytes)))
        let ratio = reader.fileSize > 0 ? Double(contentBytes) / Double(reader.fileSize) : 0
        lines.append(("compression", contentBytes > 0 ? String(format2(ratio)) + "×" : "-"))
        lines.append(("blocks", String(blocks.count)))
        lines.append(("checkpoints", String(reader.checkpoints.count)))
        lines.append(("index", reader.indexSource == .footer ? "footer (closed)" : "walked (not closed)"))
        if let damage = reader.damage { lines.append(("tail", damage.description)) }
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines {
            Output.line(key + ":" + String(repeating: " ", count: width - key.count + 1) + value)
        }
        if let damage = reader.damage, !damage.isTornTail {
            throw CLIFailure.no("\(log): damaged at byte \(damage.offset); run 'navlog verify'")
        }
    }

    private func format2(_ x: Double) -> String {
        let hundredths = Int((x * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
