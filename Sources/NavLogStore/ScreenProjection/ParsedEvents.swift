// ScreenProjection/: The screen projection kept beside each segment (schemas/screen-projection.md): building, writing, reading, reindex.

import NavLogCore

/// The events of a commit's lines that reached the writer already parsed
/// (ingest's validating thread read them to write them canonically), by
/// where each line starts in the writer's arena: the projection follows
/// them as they are instead of parsing their lines again. Lines it does
/// not hold are parsed from the arena.
///
/// Filled by the writer's thread while it gathers a commit, then handed
/// with the commit to the commit's thread, which only reads it.
struct ParsedEvents: Sendable {
    /// Arena offsets, increasing (the arena is filled in order), and their events.
    private var starts: [Int] = []
    private var events: [Event] = []

    var isEmpty: Bool { starts.isEmpty }
    var count: Int { starts.count }

    /// Forgets every event, keeping the storage (for the next commit's).
    mutating func removeAll() {
        starts.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }

    /// Keeps the event of the line appended to the arena at `start`.
    mutating func append(start: Int, _ event: Event) {
        starts.append(start)
        events.append(event)
    }

    /// The event of the line at arena offset `start`, or `nil` when it was not handed over.
    func event(at start: Int) -> Event? {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] < start { low = mid + 1 } else { high = mid }
        }
        return low < starts.count && starts[low] == start ? events[low] : nil
    }
}
