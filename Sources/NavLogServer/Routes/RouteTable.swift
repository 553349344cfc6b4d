import Hummingbird

/// The API's paths and the methods each takes (schemas/openapi.yaml): a
/// request for a known path with another method is a 405 with `Allow`, not a 404.
enum RouteTable {
    /// The methods `path` takes, or `nil` when it is not a path of the API.
    static func methods(for path: String) -> [HTTPRequest.Method]? {
        switch path {
        case "/v1/events", "/v1/logs", "/v1/funnel", "/v1/funnel/dropoffs", "/v1/paths": return [.post]
        case "/v1/sessions", "/v1/session-count", "/v1/diff", "/v1/bisect", "/metrics", "/", "/sessions", "/funnels": return [.get]
        case "/login", "/logout": return [.post]
        default: break
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "v1", "sessions", id[, what]
        guard parts.count >= 4, parts.count <= 5, parts[0].isEmpty, parts[1] == "v1", parts[2] == "sessions", !parts[3].isEmpty else {
            return nil
        }
        if parts.count == 4 || ["state", "states", "visible", "events", "replay", "blame"].contains(parts[4]) { return [.get] }
        return nil
    }
}
