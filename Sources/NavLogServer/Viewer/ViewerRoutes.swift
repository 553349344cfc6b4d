import Hummingbird
import Logging

/// The browser viewer (docs/viewer.md): its pages (`/`, `/sessions`,
/// `/sessions/{id}`, `/funnels`, one HTML shell whose script reads the
/// address), its files under `/assets/`, and signing in and out with a key
/// kept in a cookie (``LoginCookie``). The pages draw what the read API
/// answers; nothing here knows the projection's rules.
struct ViewerRoutes: Sendable {
    let assets: ViewerAssets
    /// The server's keys; `nil`: no key asked.
    let keys: KeyRing?

    /// Where the viewer's files are served.
    static let assetPrefix = "/assets/"

    /// What may load into a viewer page: its own origin only, no inline script or style, no frames.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    private static let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy")!

    /// The most bytes of a sign-in form.
    static let formLimit = 8 << 10

    /// Whether `path` is one of the viewer's pages.
    static func isPage(_ path: String) -> Bool {
        if path == "/" || path == "/sessions" || path == "/funnels" { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[1] == "sessions" && !parts[2].isEmpty
    }

    /// The headers of every page and file: its type, the policy, no sniffing, no caching of stale script.
    static func pageHeaders(contentType: String) -> HTTPFields {
        [.contentType: contentType, .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
         .cacheControl: "no-cache", referrerPolicy: "same-origin"]
    }

    func add(to router: Router<BasicRequestContext>) {
        for path in ["/", "/sessions", "/funnels", "/sessions/{id}"] {
            router.get(RouterPath(path)) { _, _ in try page(ViewerAssets.shell) }
        }
        router.get("/assets/{name}") { _, context in try page(try context.parameters.require("name")) }
        router.post("/login") { request, _ in try await login(request) }
        router.post("/logout") { _, _ in
            var response = Response.redirect(to: "/", type: .normal)
            response.headers[.setCookie] = LoginCookie.clearing
            return response
        }
    }

    /// One of the viewer's files by name; a name not in the folder (a path with `/` or `..` never is) is a 404.
    func page(_ name: String) throws -> Response {
        if let missing = assets.missing {
            return Response(status: .internalServerError, headers: Self.pageHeaders(contentType: "text/plain; charset=utf-8"),
                            body: ResponseBody(byteBuffer: ByteBuffer(string: missing + "\n")))
        }
        let found = name == ViewerAssets.shell ? assets.shellPage(keys: keys != nil) : assets.files[name]
        guard let file = found else { throw APIError.notFound("\(name): not a file of the viewer") }
        return Response(status: .ok, headers: Self.pageHeaders(contentType: file.contentType),
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// `POST /login` (form fields `key`, `next`): a key that reads sets the
    /// cookie and sends the browser on to `next` (303); another key (or
    /// none) is the form again with a message, 401. Without keys it only
    /// sends the browser on.
    func login(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: Self.formLimit)
        let fields = FormFields.parse(String(buffer: buffer))
        let key = fields["key"] ?? ""
        let destination = LoginPage.safeReturn(fields["next"] ?? "/")
        guard let keys else { return Response.redirect(to: destination, type: .normal) }
        guard !key.isEmpty, keys.grant(for: key[...]) != nil else {
            return LoginPage.response(returningTo: destination, message: "That key is not a key of this server.")
        }
        var response = Response.redirect(to: destination, type: .normal)
        response.headers[.setCookie] = LoginCookie.setting(key)
        return response
    }

    /// Logs once, when the server starts, that the viewer's files are missing.
    static func report(_ assets: ViewerAssets, to logger: Logger) {
        if let missing = assets.missing { logger.error("\(missing)") }
    }
}
