// Auth/: Keys: which routes a key grants, the key ring, the viewer's sign-in cookie.

import Hummingbird

/// Asks every request for a key that grants what its route needs: a write
/// key for uploads, a read key (or write) for the rest; `/metrics`, the
/// viewer's files, `/login` and `/logout` need none. The key comes as
/// `Authorization: Bearer KEY` or, for reads only, in the viewer's cookie
/// (``LoginCookie``). Without keys (`keys == nil`, a loopback-only server)
/// every request passes. A refused request is a 401 before its body is
/// read: nothing of it is stored. A refused viewer page is the sign-in
/// form (``LoginPage``) rather than the API's JSON error.
struct KeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let keys: KeyRing?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let keys, let needed = Self.needed(request) else { return try await next(request, context) }
        do { try Self.check(request, keys: keys, needed: needed) } catch {
            if request.method == .get && ViewerRoutes.isPage(request.uri.path) {
                return LoginPage.response(returningTo: request.uri.description, message: nil)
            }
            throw error
        }
        return try await next(request, context)
    }

    /// Throws ``APIError/unauthorized(_:)`` unless the request carries a key granting `needed`.
    static func check(_ request: Request, keys: KeyRing, needed: KeyRing.Grant) throws {
        if let header = request.headers[.authorization] {
            let prefix = "Bearer "
            guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix.lowercased() else {
                throw APIError.unauthorized("the Authorization header is not Bearer KEY")
            }
            guard let grant = keys.grant(for: header.dropFirst(prefix.count)) else { throw APIError.unauthorized("unknown key") }
            guard grant >= needed else { throw APIError.unauthorized("a read key cannot upload: a write key is needed") }
            return
        }
        if let value = LoginCookie.value(in: request.headers[values: .cookie]) {
            guard needed == .read else {
                throw APIError.unauthorized("an upload needs Authorization: Bearer with a write key; the viewer's cookie only reads")
            }
            guard let key = LoginCookie.key(value), keys.grant(for: key[...]) != nil else {
                throw APIError.unauthorized("the \(LoginCookie.name) cookie holds no known key: sign in again")
            }
            return
        }
        throw APIError.unauthorized("no key: send Authorization: Bearer KEY")
    }

    /// What a request needs: write for uploads, nothing for `/metrics` and
    /// the viewer's files and sign-in, read otherwise.
    static func needed(_ request: Request) -> KeyRing.Grant? {
        let path = request.uri.path
        if path == "/metrics" || path == "/login" || path == "/logout" || path.hasPrefix(ViewerRoutes.assetPrefix) { return nil }
        if request.method == .post && (path == "/v1/events" || path == "/v1/logs") { return .write }
        return .read
    }
}
