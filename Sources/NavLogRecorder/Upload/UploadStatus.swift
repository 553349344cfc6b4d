/// What a recorder's uploader has done so far (``NavigationRecorder/uploadStatus``).
public struct UploadStatus: Hashable, Sendable {
    /// The last seq the collector acknowledged: every event up to it is
    /// stored there (or was refused for good, counted in ``rejected``).
    /// Kept beside the log, so a new recorder on the log starts after it.
    public var acknowledgedSeq: Int
    /// Requests sent by this recorder, answered or not.
    public var requests = 0
    /// Events the collector stored from this recorder's requests.
    public var stored = 0
    /// Events the collector already had (a request re-sent after its answer was lost).
    public var duplicates = 0
    /// Events the collector refused for good (listed as rejected in its
    /// answer, or alone in a request it answered 413); they stay in the local log.
    public var rejected = 0
    /// Answers 413 (too large) that halved the batch.
    public var tooLarge = 0
    /// Failed attempts retried after a pause (no answer, 5xx, 429, 401, 400 …).
    public var retries = 0
    /// The most recent failure, if the last attempt failed.
    public var problem: UploadProblem?

    public init(acknowledgedSeq: Int) { self.acknowledgedSeq = acknowledgedSeq }
}

/// Why an upload attempt did not get its events acknowledged.
public enum UploadProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer: the collector could not be reached or the request timed out.
    case unreachable(url: String, reason: String)
    /// An answer other than 200, with its status and what the body said.
    case status(url: String, code: Int, body: String)
    /// A 200 whose body is not the expected JSON.
    case badAnswer(url: String, body: String)
    /// The local log could not be read, or the progress file not written.
    case local(String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): "upload to \(url) failed: \(reason)"
        case .status(let url, let code, let body):
            "upload to \(url) answered \(code)" + (body.isEmpty ? "" : ": \(body)")
        case .badAnswer(let url, let body): "upload to \(url) answered 200 with an unreadable body: \(body)"
        case .local(let why): "upload stopped by the local log: \(why)"
        }
    }
}
