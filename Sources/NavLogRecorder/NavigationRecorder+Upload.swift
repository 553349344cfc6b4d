extension NavigationRecorder {
    /// What the uploader has done so far, or `nil` when
    /// ``RecorderOptions/upload`` is not set. Every event up to
    /// ``UploadStatus/acknowledgedSeq`` is at the collector.
    public var uploadStatus: UploadStatus? { uploader?.currentStatus }
}
