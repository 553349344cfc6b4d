#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog ingest INPUT… --store DIR [--rejects FILE]`: interleaved sessions
/// into one log per session (contract §4).
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store NDJSON holding many sessions into one log per session.",
        discussion: """
            Every line is stored or rejected: rejected lines are reported as file:line: reason \
            (the first 20 on standard error, all counted) and, with --rejects, copied there \
            verbatim. Exit 1 when any line was rejected. A session that already has a log in \
            the store is appended to; its seq goes on. Session ids become file names by \
            schemas/store.md (a readable slug and a hash of the id). A progress bar is drawn \
            on standard error when it is a terminal.

            Example:
              navlog generate --sessions 100 | navlog ingest - --store logs --rejects rejected.ndjson
            """
    )

    @Argument(help: ArgumentHelp("NDJSON files of events (- for standard input).", valueName: "input"))
    var inputs: [String]

    @Option(help: ArgumentHelp("The store: a directory of .navlog files (created when absent).", valueName: "dir"))
    var store: String

    @Option(help: ArgumentHelp("Where to copy rejected lines, verbatim.", valueName: "file"))
    var rejects: String?

    @Option(name: .customLong("max-open"), help: ArgumentHelp("Logs open for writing at once.", valueName: "n"))
    var maxOpen: Int = 128

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input (- for standard input)") }
        if maxOpen < 1 { throw ValidationError("--max-open must be at least 1") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        // Inputs that cannot be read are reported before the store is touched.
        for input in inputs where input != "-" && access(input, R_OK) != 0 {
            throw CLIFailure.trouble("\(input): cannot open: \(String(cString: strerror(errno)))")
        }
        let target: Store
        do { target = try Store(directory: store, create: true) } catch { throw CLIFailure.trouble(error.description) }
        var rejectsFile: BufferedFile?
        if let rejects {
            do { rejectsFile = try BufferedFile(creating: rejects) } catch { throw CLIFailure.trouble(error.message) }
        }
        let progress = ProgressBar(totalBytes: ProgressBar.totalSize(of: inputs))
        var shown = 0
        var rejectsError: String?
        let ingester = StoreIngester(store: target, options: StoreIngester.Options(maxOpenWriters: maxOpen))
        let report: StoreIngester.Report
        do throws(LogError) {
            report = try ingester.ingest(paths: inputs, onReject: { rejection in
                shown += 1
                if shown <= SessionInput.rejectsShown {
                    progress?.clear()
                    Output.error(rejection.description)
                }
                if let file = rejectsFile, let bytes = rejection.bytes, rejectsError == nil {
                    do throws(BufferedFile.Failure) {
                        try file.write(bytes)
                        try file.write([0x0A])
                    } catch { rejectsError = error.message }
                }
            }, onProgress: { progress?.draw($0) })
        } catch {
            progress?.clear()
            try? rejectsFile?.close()
            throw CLIFailure.trouble(error.description)
        }
        progress?.clear()
        if let file = rejectsFile {
            do { try file.close() } catch { rejectsError = rejectsError ?? error.message }
        }
        if let rejectsError { throw CLIFailure.trouble(rejectsError) }
        let sessions = "\(report.sessions) session\(report.sessions == 1 ? "" : "s") (\(report.newLogs) new)"
        Output.line("stored \(report.stored) event\(report.stored == 1 ? "" : "s") of \(sessions) in \(target.directory); "
                    + "\(report.rejected) line\(report.rejected == 1 ? "" : "s") rejected")
        if report.rejected > 0 {
            let more = report.rejected > SessionInput.rejectsShown ? " (\(report.rejected - SessionInput.rejectsShown) not shown)" : ""
            let kept = rejects.map { "; kept in \($0)" } ?? ""
            throw CLIFailure.no("\(report.rejected) line\(report.rejected == 1 ? "" : "s") rejected\(more)\(kept)")
        }
    }
}

/// A progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar {
    private let totalBytes: Int64?
    private var lastDraw: Int64 = 0
    private var drawn = false

    /// `nil` when standard error is not a terminal.
    init?(totalBytes: Int64?) {
        guard isatty(2) != 0 else { return nil }
        self.totalBytes = totalBytes
    }

    /// The summed size of the inputs when every one is a regular file.
    static func totalSize(of paths: [String]) -> Int64? {
        var total: Int64 = 0
        for path in paths {
            var info = stat()
            guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int64(info.st_size)
        }
        return total
    }

    func draw(_ progress: StoreIngester.Progress) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let ms = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        guard ms - lastDraw >= 100 else { return }
        lastDraw = ms
        var text = "\r"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(Double(progress.bytesRead) / Double(totalBytes), 1)
            let filled = Int(fraction * 30)
            text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            text += "\(Int(fraction * 100))% "
        }
        text += "\(progress.linesRead) lines, \(progress.rejected) rejected\u{1B}[K"
        write(text)
        drawn = true
    }

    /// Removes the bar (before a message, and at the end).
    func clear() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { buf in _ = Glibc_writeAll(2, buf) }
    }
}

/// A file written through a buffer.
final class BufferedFile {
    struct Failure: Error { let message: String }
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    init(creating path: String) throws(Failure) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(message: "\(path): cannot create: \(String(cString: strerror(errno)))") }
    }

    func write(_ bytes: [UInt8]) throws(Failure) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws(Failure) {
        let ok = buffer.withUnsafeBufferPointer { Glibc_writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
        guard ok else { throw Failure(message: "\(path): cannot write: \(String(cString: strerror(errno)))") }
    }

    func close() throws(Failure) {
        defer { _ = Glibc.close(fd) }
        try flush()
    }
}

/// Writes all of `bytes` to `fd`, retrying on EINTR; `false` on failure.
func Glibc_writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        #else
        let n = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        #endif
        if n < 0 { if errno == EINTR { continue }; return false }
        offset += n
    }
    return true
}
