import NavLogCore

// The only place the store touches the projection: folding an event, and
// the checkpoint JSON that the state chain hashes and checkpoints store
// (schemas/navlog-format.md §7).

extension StateChain {
    @inline(__always)
    static func project(_ projector: inout NavigationProjector, _ event: Event) {
        _ = projector.apply(event)
    }

    /// The canonical text of ``NavigationState/checkpointJSON``.
    static func checkpointJSON(_ state: NavigationState) -> [UInt8] {
        var writer = CanonicalWriter(capacity: 1024)
        writer.write(state.checkpointJSON)
        return writer.bytes
    }

    /// Decodes a checkpoint's JSON, or `nil` when it is not a valid state.
    /// (Bounded by ``JSONValue/parse(_:)``'s limit of ``EventParser/maxLineBytes``;
    /// the writer stores no bigger checkpoint.)
    static func decodeCheckpoint(_ json: [UInt8]) -> NavigationState? {
        guard let value = try? JSONValue.parse(String(decoding: json, as: UTF8.self)) else { return nil }
        return try? NavigationState(json: value)
    }

    /// The largest checkpoint JSON the writer stores.
    static let maxCheckpointJSONBytes = EventParser.maxLineBytes
}
