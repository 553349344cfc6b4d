#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogStore

/// What `ingest` and every `import` take: the inputs, the store, where
/// rejected input goes, and how many logs may be open at once.
struct StoreWriteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Input files (- for standard input).", valueName: "input"), completion: .file())
    var inputs: [String]

    @Option(help: ArgumentHelp("The store: a directory of .navlog files (created when absent).", valueName: "dir"), completion: .directory)
    var store: String

    @Option(help: ArgumentHelp("Where to copy rejected lines or records, verbatim (a CSV keeps its header).", valueName: "file"), completion: .file())
    var rejects: String?

    @Option(name: .customLong("max-open"), help: ArgumentHelp("Logs open for writing at once.", valueName: "n"))
    var maxOpen: Int = 128

    @Flag(name: .long, help: "Print the summary as one JSON object on standard output (schemas/ingest.schema.json, schemas/import.schema.json).")
    var json = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input (- for standard input)") }
        if maxOpen < 1 { throw ValidationError("--max-open must be at least 1") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    /// The store, created when absent.
    func openStore() throws -> Store {
        do { return try Store(directory: store, create: true) } catch { throw CLIFailure.trouble(error.description) }
    }

    /// Refuses a `--rejects` file that is one of the inputs (creating it
    /// would empty that input before a line of it is read) or that lies in
    /// the store (it could take the place of a log). Call once the store exists.
    func checkRejectsPath(_ path: String) throws {
        if let target = Self.identity(path) {
            for input in inputs where input != "-" && Self.identity(input) == target {
                throw CLIFailure.trouble("--rejects \(path) is the input \(input): it would be emptied before it is read")
            }
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if let inside = Self.identity(directory), inside == Self.identity(store) {
            throw CLIFailure.trouble("--rejects \(path) is in the store \(store): name a file outside it")
        }
    }

    /// The device and inode of the file at `path`, when there is one.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}

/// How a store write reports what it rejects: the first
/// ``SessionInput/rejectsShown`` on standard error, every one copied verbatim
/// to `--rejects`, and the progress bar (on a terminal) cleared around them.
final class RejectionReporter {
    /// The progress bar, when standard error is a terminal.
    let progress: ProgressBar?
    private(set) var rejectsPath: String?
    private var rejectsFile: BufferedFile?
    private var rejectsError: String?
    private var shown = 0
    /// Rejections whose bytes were not at hand to keep (lines over the length limit).
    private(set) var notKept = 0

    /// Creates the `--rejects` file, if any.
    init(_ options: StoreWriteOptions) throws {
        progress = ProgressBar(totalBytes: ProgressBar.totalSize(of: options.inputs))
        rejectsPath = options.rejects
        if let rejects = options.rejects {
            try options.checkRejectsPath(rejects)
            do { rejectsFile = try BufferedFile(creating: rejects) } catch { throw CLIFailure.trouble(error.message) }
        }
    }

    /// Reports one rejection; `bytes` (when kept) go to `--rejects`, with a
    /// `\n` added unless they end in one.
    func reject(_ description: String, bytes: [UInt8]?) {
        shown += 1
        if shown <= SessionInput.rejectsShown {
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
        do throws(BufferedFile.Failure) {
            try file.write(bytes)
            if newline { try file.write([0x0A]) }
        } catch { rejectsError = error.message }
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
            do { try file.close() } catch { rejectsError = rejectsError ?? error.message }
            rejectsFile = nil
        }
        if let rejectsError { throw CLIFailure.trouble(rejectsError) }
    }

    /// Exit status 1 when `count` lines or records were rejected.
    func failIfRejected(_ count: Int, noun: String) throws {
        guard count > 0 else { return }
        let more = count > SessionInput.rejectsShown ? " (\(count - SessionInput.rejectsShown) not shown)" : ""
        var kept = rejectsPath.map { "; kept in \($0)" } ?? ""
        if notKept > 0 {
            kept += notKept == count ? " (none: over the line length limit, not copied)"
                : " (but \(notKept) over the line length limit, not copied)"
        }
        throw CLIFailure.no("\(count) \(noun)\(count == 1 ? "" : "s") rejected\(more)\(kept)")
    }
}
