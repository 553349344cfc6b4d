// NavLogRecorder/: Recording from an app: `NavigationRecorder` (its calls, options, lock and background writer on `LogWriter`), route values from app types; `Upload/`, the uploader to a collector.
/// The `cause` that recording calls inside ``NavigationRecorder/openedURL(_:scene:meta:_:)``
/// put on their events.
///
/// A task-local value: it holds for synchronous code in the closure on any
/// thread that runs it, and for tasks created in it (`Task { }`, `async let`,
/// task groups). Work handed to another thread or a detached task does not
/// inherit it: pass ``current`` there as the explicit `cause:` argument.
public enum CauseContext {
    /// The seq of the `url.open` whose closure is running, if any.
    @TaskLocal public static var current: Int?
}
