import NavLogCore

// TEMPORARY BRIDGE — replaced when NavLogCore's projection
// (`NavigationState.apply(_:)`, checkpoint JSON encode/decode) lands on main.
// Until then the state tracked here is only session, seq and t, so that the
// chain, checkpoints and their round trip can be built and tested end to end.

extension StateChain {
    static func project(_ state: inout NavigationState, _ event: Event) {
        state.seq = event.seq
        state.t = event.t
    }

    static func checkpointJSON(_ state: NavigationState) -> [UInt8] {
        var writer = CanonicalWriter()
        var object: [String: JSONValue] = ["seq": .number(String(state.seq)), "session": .string(state.session)]
        if let t = state.t { object["t"] = .string(t.rfc3339) }
        writer.write(object: object)
        return writer.bytes
    }

    static func decodeCheckpoint(_ json: [UInt8]) -> NavigationState? {
        guard case .object(let o)? = try? JSONValue.parse(String(decoding: json, as: UTF8.self)),
              case .string(let session)? = o["session"], case .number(let seqText)? = o["seq"],
              let seq = Int(seqText) else { return nil }
        var state = NavigationState(session: session)
        state.seq = seq
        if case .string(let t)? = o["t"] { state.t = Timestamp(rfc3339: t) }
        return state
    }
}
