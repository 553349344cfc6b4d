/// The `session.start` templates of projection blocks, each parsed once
/// (schemas/screen-projection.md §2): the blocks of a store repeat the same
/// few (an app build on a device model), and a reader that decodes every
/// block keeps one event for each, shared by the blocks, instead of one a
/// block. Used by one thread at a time.
public struct SessionStartTemplates {
    private var parser = EventLineParser()
    private var events: [String: Event] = [:]

    public init() {}

    /// The event of template `line`, or `nil` when the line is not an event.
    mutating func event(_ line: String) -> Event? {
        if let known = events[line] { return known }
        var line = line
        let parsed = line.withUTF8 { utf8 in try? parser.parse(UnsafeRawBufferPointer(utf8)) }
        if let parsed { events[line] = parsed }
        return parsed
    }
}
