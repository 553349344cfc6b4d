// STUB — owned by the projection work; replace with the real decoder.
extension SceneState {
    /// Decodes the `state` object of a `state.restore` event (a scene object
    /// as in contract §2). Returns the scene and the object as it will be
    /// written back canonically (route values reduced to type/id/data).
    /// Errors name the field by its path, e.g. `state.stacks.home[0].type`.
    public static func decodeRestore(
        _ object: [String: JSONValue]
    ) throws(EventParseError) -> (state: SceneState, canonical: [String: JSONValue]) {
        (SceneState(), object)
    }
}
