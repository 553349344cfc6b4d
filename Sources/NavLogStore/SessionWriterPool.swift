import NavLogCore

/// Writers of a store's logs kept open across appends, at most
/// ``maxOpen`` at once (the least recently used is closed first and reopened,
/// continuing, if its session comes back).
///
/// The minimal writing path of `navlog import`: single-threaded, one
/// ``LogWriter`` per session from ``Store/openWriter(forSession:options:)``.
/// (`StoreIngester`'s writer side does the same on a thread of its own; the
/// two can merge once it takes events rather than lines.)
public final class SessionWriterPool {
    public let store: Store
    public let maxOpen: Int
    public let options: LogWriterOptions
    private var open: [String: (writer: LogWriter, lastUse: Int)] = [:]
    private var clock = 0
    /// How many times a log was opened (a session comes back after its
    /// writer was closed: counted again).
    public private(set) var opened = 0

    public init(store: Store, maxOpen: Int = 128, options: LogWriterOptions = LogWriterOptions()) {
        self.store = store
        self.maxOpen = max(1, maxOpen)
        self.options = options
    }

    /// Appends the events of one session, all or none (seq 0 is assigned).
    ///
    /// - Throws: ``LogError``; `.rejected` when an event is refused (nothing
    ///   of the batch is written), anything else for trouble with the log.
    public func append(_ events: [Event], session: String) throws(LogError) {
        guard !events.isEmpty else { return }
        clock += 1
        let writer: LogWriter
        if let entry = open[session] {
            writer = entry.writer
            open[session]!.lastUse = clock
        } else {
            if open.count >= maxOpen, let oldest = open.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                open.removeValue(forKey: oldest.key)
                try oldest.value.writer.close()
            }
            writer = try store.openWriter(forSession: session, options: options)
            open[session] = (writer, clock)
            opened += 1
        }
        if events.count == 1 { try writer.append(events[0]) } else { try writer.append(contentsOf: events) }
    }

    /// Closes every open log (seals, footer, sync).
    public func close() throws(LogError) {
        var first: LogError?
        for (_, entry) in open {
            do { try entry.writer.close() } catch { if first == nil { first = error } }
        }
        open.removeAll()
        if let first { throw first }
    }
}
