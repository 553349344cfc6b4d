/// The `session.start` templates of projection blocks, each parsed once
/// (schemas/screen-projection.md §2): the blocks of a store mostly repeat
/// the same few (an app build on a device model), and a reader that decodes
/// every block keeps one event for each, shared by the blocks, instead of
/// one a block. It keeps at most ``capacity``: past that (a producer that
/// puts something of each session's own in `session.start`, such as a user
/// id in `meta`) it is full, and the blocks decoded with it keep their
/// templates as bytes, parsed when asked for. Used by one thread at a time.
public struct SessionStartTemplates {
    private var parser = EventLineParser()
    private var events: [String: Event] = [:]
    /// Whether a template was met that there was no room for.
    public private(set) var isFull = false
    /// The most templates kept.
    let capacity: Int

    public init(capacity: Int = 8192) { self.capacity = capacity }

    /// The event of template `line`, or `nil` when the line is not an event.
    mutating func event(_ line: String) -> Event? {
        if let known = events[line] { return known }
        var line = line
        let parsed = line.withUTF8 { utf8 in try? parser.parse(UnsafeRawBufferPointer(utf8)) }
        if let parsed {
            if events.count < capacity { events[line] = parsed } else { isFull = true }
        }
        return parsed
    }
}
