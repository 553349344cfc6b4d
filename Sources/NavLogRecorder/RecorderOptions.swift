import Foundation
import NavLogStore

/// How a ``NavigationRecorder`` buffers events and when they reach the disk.
public struct RecorderOptions: Hashable, Sendable {
    /// What a recording call does when the buffer is full.
    public enum WhenFull: Hashable, Sendable {
        /// The caller waits until the writer thread has made room.
        case block
        /// The event is dropped and counted; the count is recorded as a
        /// `recorder.dropped` event (field `count`) as soon as there is room.
        case drop
    }

    /// Events the buffer holds before ``whenFull`` applies (default 8192).
    public var capacity: Int
    /// What happens when the buffer is full (default ``WhenFull/block``).
    public var whenFull: WhenFull
    /// The writer thread syncs recorded events by itself once they are this
    /// old (default 1000 ms; `nil`: only ``NavigationRecorder/flush()`` and
    /// ``NavigationRecorder/close()`` sync).
    public var syncIntervalMilliseconds: Int?
    /// Options of the underlying ``LogWriter`` (its default durability,
    /// `onFlush`, leaves syncing to the recorder).
    public var writer: LogWriterOptions
    /// Where durable events are shipped, if anywhere (default `nil`: the
    /// log stays on the device). See ``UploadOptions``.
    public var upload: UploadOptions?

    public init(
        capacity: Int = 8192, whenFull: WhenFull = .block,
        syncIntervalMilliseconds: Int? = 1000, writer: LogWriterOptions = LogWriterOptions(),
        upload: UploadOptions? = nil
    ) {
        self.capacity = max(capacity, 1)
        self.whenFull = whenFull
        self.syncIntervalMilliseconds = syncIntervalMilliseconds.map { max($0, 1) }
        self.writer = writer
        self.upload = upload
    }

    /// Options that ship durable events to the collector at `url` with the
    /// write key `key`, everything else as by default.
    public static func upload(url: URL, key: String? = nil) -> RecorderOptions {
        RecorderOptions(upload: UploadOptions(url: url, key: key))
    }
}
