import Hummingbird

/// Asks every request for a key (`Authorization: Bearer KEY`) that grants
/// what its route needs: a write key for uploads, a read key (or write)
/// for the rest; `/metrics` needs none. Without keys (`keys == nil`, a
/// loopback-only server) every request passes. A refused request is a 401
/// before its body is read: nothing of it is stored.
struct KeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let keys: KeyRing?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let keys, let needed = Self.needed(request) else { return try await next(request, context) }
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("no key: send Authorization: Bearer KEY")
        }
        let prefix = "Bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix.lowercased() else {
            throw APIError.unauthorized("the Authorization header is not Bearer KEY")
        }
        guard let grant = keys.grant(for: header.dropFirst(prefix.count)) else { throw APIError.unauthorized("unknown key") }
        guard grant >= needed else { throw APIError.unauthorized("a read key cannot upload: a write key is needed") }
        return try await next(request, context)
    }

    /// What a request needs: write for uploads, nothing for `/metrics`, read otherwise.
    static func needed(_ request: Request) -> KeyRing.Grant? {
        let path = request.uri.path
        if path == "/metrics" { return nil }
        if request.method == .post && (path == "/v1/events" || path == "/v1/logs") { return .write }
        return .read
    }
}
