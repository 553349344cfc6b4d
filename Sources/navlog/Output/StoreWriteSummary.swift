#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// The summaries of `navlog ingest` and `navlog import FORMAT`: one line of
/// text, or with `--json` one object (schemas/ingest.schema.json,
/// schemas/import.schema.json), both made from the one report.
extension RejectionReporter {
    /// The fields both summaries share: what was stored where, what was rejected and where it was kept.
    func summaryFields(store: String, stored: Int, rejected: Int, sessions: Int, newSessions: Int) -> [String: JSONValue] {
        [
            "store": .string(store),
            "stored": .integer(stored),
            "rejected": .integer(rejected),
            "sessions": .integer(sessions),
            "newSessions": .integer(newSessions),
            "rejectsFile": rejectsPath.map(JSONValue.string) ?? .null,
            "rejectsNotCopied": .integer(notKept),
        ]
    }
}

extension StoreWriteReport {
    /// The JSON summary; `failure` is the error that stopped an ingest, if
    /// one did (what was stored before it stays stored).
    func jsonValue(store: String, reporter: RejectionReporter, failure: String? = nil) -> JSONValue {
        var object = reporter.summaryFields(store: store, stored: stored, rejected: rejected, sessions: sessions, newSessions: newSessions)
        object["duplicates"] = .integer(duplicates)
        object["stopped"] = StopSignals.json(stoppedAfter: stoppedAfter)
        object["projectionBehind"] = projectionBehind.map(JSONValue.string) ?? .null
        switch unit {
        case .lines:
            object["lines"] = .integer(read)
            object["blankLines"] = .integer(blankLines)
            object["failure"] = failure.map(JSONValue.string) ?? .null
        case .records:
            object["records"] = .integer(read)
        }
        return .object(object)
    }

    /// The one-line text summary.
    func text(store storePath: String) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let stored = "stored \(plural(self.stored, "event")) of \(plural(sessions, "session")) (\(newSessions) new)"
        let already = duplicates > 0 ? "\(plural(duplicates, "event")) already stored" : nil
        switch unit {
        case .lines:
            return "\(stored) in \(storePath); " + (already.map { $0 + "; " } ?? "") + "\(plural(rejected, "line")) rejected"
        case .records:
            return "\(stored) from \(plural(read, "record")) in \(storePath); \(plural(rejected, "record")) rejected"
                + (already.map { "; " + $0 } ?? "")
        }
    }

    /// The end of an ingest or import: the summary (text or JSON) on
    /// standard output, the note when the projection is behind, then the
    /// exit status of a stop (128 + the signal) or of rejections (1).
    func finish(store: String, reporter: RejectionReporter, json: Bool) throws {
        try reporter.finish()
        Output.line(json ? jsonValue(store: store, reporter: reporter).canonicalText : text(store: store))
        Output.projectionNote(projectionBehind, store: store)
        if let stopped = StopSignals.failure(stoppedAfter: stoppedAfter) { throw stopped }
        try reporter.failIfRejected(rejected, noun: unit == .lines ? "line" : "record")
    }
}

extension StopSignals {
    /// The `stopped` field of an ingest or import summary: the last line
    /// read when a held signal stopped it, else `null`.
    static func json(stoppedAfter: (file: String, line: Int)?) -> JSONValue {
        guard let (file, line) = stoppedAfter, let signal = pending() else { return .null }
        return .object([
            "input": .string(file),
            "line": .integer(line),
            "signal": .string(name(signal)),
            "exitStatus": .integer(exitStatus(signal)),
        ])
    }

    /// After an ingest or import a held signal stopped: the one line that
    /// says where reading ended, and its exit status (128 + the signal).
    static func failure(stoppedAfter: (file: String, line: Int)?) -> CLIFailure? {
        guard let (file, line) = stoppedAfter, let signal = pending() else { return nil }
        let input = file == "-" ? "<stdin>" : file
        return CLIFailure(message: "stopped: read up to \(input):\(line); nothing after it was read", exitCode: exitStatus(signal))
    }
}

extension Output {
    /// After an ingest or import: says on standard error that the store's
    /// screen projection is behind, and how to bring it up to date.
    static func projectionNote(_ behind: String?, store: String) {
        guard let behind else { return }
        error("note: the screen projection is behind (\(behind)); funnel, paths and export read the events "
              + "until `navlog reindex \(store)`")
    }
}

extension StopSignals {
    /// `SIGINT` or `SIGTERM`.
    static func name(_ signal: Int32) -> String {
        signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    }
}
