import Foundation

/// Where and how a ``NavigationRecorder`` ships its durable events to a
/// collector (`navlog serve`): `POST {url}/v1/events`, one session a request.
///
/// ```swift
/// let options = RecorderOptions(upload: UploadOptions(url: URL(string: "https://collect.example.com")!,
///                                                     key: "w-123"))
/// ```
///
/// Events are sent once they are durable in the local log, which is the
/// queue: in batches when ``batchEvents`` are waiting or the oldest has
/// waited ``intervalMilliseconds``, and at once on
/// ``NavigationRecorder/flush()``.
public struct UploadOptions: Hashable, Sendable {
    /// The collector's base URL; requests go to `{url}/v1/events`.
    public var url: URL
    /// The write key, sent as `Authorization: Bearer KEY` (`nil`: none).
    public var key: String?
    /// Durable events that start a request without waiting (default 20).
    public var batchEvents: Int
    /// Longest an event waits for a batch to fill (default 30,000 ms).
    public var intervalMilliseconds: Int
    /// Events a request carries at most (default 50). Halved, down to 1,
    /// when the collector answers 413 (too large).
    public var maxEventsPerRequest: Int
    /// Whether bodies are gzip-compressed (`Content-Encoding: gzip`, default on).
    public var gzip: Bool
    /// First pause after a failed request (default 500 ms); each failure in
    /// a row doubles it, up to ``retryMaximumMilliseconds`` (default
    /// 30,000 ms). The pause taken is random between zero and that bound
    /// (full jitter), so many devices do not retry in step.
    public var retryMinimumMilliseconds: Int
    /// The bound on the pause between retries (default 30,000 ms).
    public var retryMaximumMilliseconds: Int
    /// How long a request may take before it counts as failed (default 30,000 ms).
    public var requestTimeoutMilliseconds: Int

    public init(
        url: URL, key: String? = nil,
        batchEvents: Int = 20, intervalMilliseconds: Int = 30_000, maxEventsPerRequest: Int = 50,
        gzip: Bool = true, retryMinimumMilliseconds: Int = 500, retryMaximumMilliseconds: Int = 30_000,
        requestTimeoutMilliseconds: Int = 30_000
    ) {
        self.url = url
        self.key = key
        self.batchEvents = max(batchEvents, 1)
        self.intervalMilliseconds = max(intervalMilliseconds, 1)
        self.maxEventsPerRequest = max(maxEventsPerRequest, 1)
        self.gzip = gzip
        self.retryMinimumMilliseconds = max(retryMinimumMilliseconds, 1)
        self.retryMaximumMilliseconds = max(retryMaximumMilliseconds, self.retryMinimumMilliseconds)
        self.requestTimeoutMilliseconds = max(requestTimeoutMilliseconds, 1)
    }

    /// The endpoint the events go to.
    var eventsURL: URL { url.appendingPathComponent("v1").appendingPathComponent("events") }
}
