import ArgumentParser
import NavLogStore

/// What `ingest` and every `import` take: the inputs, the store, and where
/// rejected input goes.
struct StoreWriteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Input files (- for standard input).", valueName: "input"), completion: .file())
    var inputs: [String]

    @Option(help: ArgumentHelp("The store: a segment store, or a new or empty directory to make one in.", valueName: "dir"), completion: .directory)
    var store: String

    @Option(help: ArgumentHelp("Where to copy rejected lines or records, verbatim (a CSV keeps its header).", valueName: "file"), completion: .file())
    var rejects: String?

    @Option(name: .customLong("max-open"), help: ArgumentHelp("No effect (kept so that scripts that pass it still run): a store keeps a few files open, however many sessions are under way.", valueName: "n"))
    var maxOpen: Int = 128

    @Flag(name: .long, help: "Print the summary as one JSON object on standard output (schemas/ingest.schema.json, schemas/import.schema.json).")
    var json = false

    @Option(name: .customLong("commit-interval"), help: ArgumentHelp(
        "Commit (sync) what was stored at least every N milliseconds while input comes in; 0: after every chunk of lines.",
        valueName: "ms"))
    var commitInterval: Int = 1000

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input (- for standard input)") }
        if maxOpen < 1 { throw ValidationError("--max-open must be at least 1") }
        if commitInterval < 0 { throw ValidationError("--commit-interval must be 0 or more") }
        try InputOutputChecks.standardInputOnce(inputs)
    }

    /// The store, opened for writing (its lock taken), made when the
    /// directory is absent or empty; a version-1 store is refused.
    func openStore() throws -> SegmentStore {
        let opened: SegmentStore
        do { opened = try StoreTarget.openForWriting(at: store) } catch { throw CLIFailure.trouble(error.description) }
        // A torn tail (bytes after the durable point) is cut aside by the writer, which says so.
        opened.onTornTailCut = { [path = opened.path] in Output.error("\(path)/\($0)") }
        return opened
    }
}

/// How every write (`ingest`, `import`, `append`) reports what it rejects:
/// the first ``OneSession/rejectsShown`` on standard error, every one
/// counted and copied verbatim to `--rejects`, and the progress bar (on a
/// terminal) cleared around them.
final class RejectionReporter {
    /// The progress bar, when standard error is a terminal.
    let progress: ProgressBar?
    private(set) var rejectsPath: String?
    private var rejectsFile: OutputFile?
    private var rejectsError: String?
    private var shown = 0
    /// Rejections whose bytes were not at hand to keep (lines over the length limit).
    private(set) var notKept = 0

    /// Reports on standard error only (no `--rejects`, no progress bar): `navlog append`.
    init() {
        progress = nil
    }

    /// Creates the `--rejects` file, if any.
    init(_ options: StoreWriteOptions) throws {
        progress = ProgressBar(totalBytes: ProgressBar.totalSize(of: options.inputs))
        rejectsPath = options.rejects
        if let rejects = options.rejects {
            // Creating it would empty an input before a line of it is read; in the store it could take a log's place.
            try InputOutputChecks.refuseOverwriting(rejects, option: "--rejects", inputs: options.inputs, store: options.store)
            do { rejectsFile = try OutputFile(path: rejects) } catch { throw CLIFailure.trouble(error.description) }
        }
    }

    /// Reports one rejection; `bytes` (when kept) go to `--rejects`, with a
    /// `\n` added unless they end in one.
    func reject(_ description: String, bytes: [UInt8]?) {
        shown += 1
        if shown <= OneSession.rejectsShown {
            progress?.clear()
            Output.error(description)
        }
        if let bytes {
            keep(bytes, newline: bytes.last != 0x0A)
        } else if rejectsFile != nil {
            notKept += 1
        }
    }

    /// Copies bytes to `--rejects` (a CSV header, a rejected record).
    func keep(_ bytes: [UInt8], newline: Bool) {
        guard let file = rejectsFile, rejectsError == nil else { return }
        do throws(FileError) {
            try file.write(bytes)
            if newline { try file.write([0x0A]) }
        } catch { rejectsError = error.description }
    }

    /// After a failure: the bar cleared, what was kept written out.
    func abandon() {
        progress?.clear()
        try? rejectsFile?.close()
        rejectsFile = nil
    }

    /// At the end: the bar cleared, `--rejects` closed; throws when it could
    /// not be written.
    func finish() throws {
        progress?.clear()
        if let file = rejectsFile {
            do { try file.close() } catch { rejectsError = rejectsError ?? error.description }
            rejectsFile = nil
        }
        if let rejectsError { throw CLIFailure.trouble(rejectsError) }
    }

    /// What the summary adds when more than ``OneSession/rejectsShown`` were rejected.
    static func notShown(_ count: Int) -> String {
        count > OneSession.rejectsShown ? " (\(count - OneSession.rejectsShown) not shown)" : ""
    }

    /// Exit status 1 when `count` lines or records were rejected.
    func failIfRejected(_ count: Int, noun: String) throws {
        guard count > 0 else { return }
        let more = Self.notShown(count)
        var kept = rejectsPath.map { "; kept in \($0)" } ?? ""
        if notKept > 0 {
            kept += notKept == count ? " (none: over the line length limit, not copied)"
                : " (but \(notKept) over the line length limit, not copied)"
        }
        throw CLIFailure.no("\(count) \(noun)\(count == 1 ? "" : "s") rejected\(more)\(kept)")
    }
}
