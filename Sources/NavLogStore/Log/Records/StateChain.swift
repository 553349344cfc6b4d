import NavLogCore

/// The projected state as a log is written or read, and the state chain over
/// block ends (schemas/navlog-format.md §7):
///
///     h_k = XXH64( u64le(h_{k−1}) ‖ u64le(XXH64(checkpoint JSON of s_k)) ),  h_{−1} = 0
struct StateChain {
    /// Folds the events; holds the state after the last applied event.
    private var projector: NavigationProjector
    /// The state after the last applied event.
    var state: NavigationState { projector.state }
    /// h of the last sealed block (0 before the first).
    private(set) var hash: UInt64

    init(session: String) {
        projector = NavigationProjector(session: session)
        hash = 0
    }

    init(state: NavigationState, hash: UInt64) {
        self.projector = NavigationProjector(state: state)
        self.hash = hash
    }

    /// Folds one event into the state.
    mutating func apply(_ event: Event) {
        Self.project(&projector, event)
    }

    /// Ends a block: advances the chain with the current state and returns
    /// h_k and the checkpoint JSON it was computed from.
    mutating func sealBlock() -> (hash: UInt64, json: [UInt8]) {
        let json = Self.checkpointJSON(state)
        hash = Self.link(hash, XXHash64.hash(json))
        return (hash, json)
    }

    /// One step of the chain.
    static func link(_ previous: UInt64, _ stateHash: UInt64) -> UInt64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        bytes.appendLE(previous)
        bytes.appendLE(stateHash)
        return XXHash64.hash(bytes)
    }
}
