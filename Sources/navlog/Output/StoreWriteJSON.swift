#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// The summaries of `navlog ingest --json` (schemas/ingest.schema.json) and
/// `navlog import FORMAT --json` (schemas/import.schema.json): one object,
/// made from the report the text summary is made from.
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

extension StoreIngester.Report {
    /// The ingest summary; `failure` is the error that stopped it, if one did
    /// (what was stored before it stays stored).
    func jsonValue(store: String, reporter: RejectionReporter, failure: String? = nil) -> JSONValue {
        var object = reporter.summaryFields(store: store, stored: stored, rejected: rejected, sessions: sessions, newSessions: newSessions)
        object["duplicates"] = .integer(duplicates)
        object["lines"] = .integer(lines)
        object["blankLines"] = .integer(blankLines)
        object["stopped"] = StopSignals.json(stoppedAfter: stoppedAfter)
        object["failure"] = failure.map(JSONValue.string) ?? .null
        object["projectionBehind"] = projectionBehind.map(JSONValue.string) ?? .null
        return .object(object)
    }
}

extension StoreImporter.Report {
    /// The import summary.
    func jsonValue(store: String, reporter: RejectionReporter) -> JSONValue {
        var object = reporter.summaryFields(store: store, stored: stored, rejected: rejected, sessions: sessions, newSessions: newSessions)
        object["records"] = .integer(records)
        object["duplicates"] = .integer(duplicates)
        object["stopped"] = StopSignals.json(stoppedAfter: stoppedAfter)
        object["projectionBehind"] = projectionBehind.map(JSONValue.string) ?? .null
        return .object(object)
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
