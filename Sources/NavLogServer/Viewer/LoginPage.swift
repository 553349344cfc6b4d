import Hummingbird
import NavLogCore

/// The viewer's sign-in form, made on the server: shown for a page asked
/// without a valid key when the server has keys; it posts a key to
/// `/login`, which comes back here with a message when the key is wrong.
enum LoginPage {
    /// The form, with status 401, returning to `path` once signed in.
    static func response(returningTo path: String, message: String?) -> Response {
        let note = message.map { #"<p class="login-error" role="alert">\#(MarkupText.escaped($0))</p>"# } ?? ""
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>navlog: sign in</title>
            <link rel="icon" href="/assets/favicon.svg">
            <link rel="stylesheet" href="/assets/viewer.css">
            </head>
            <body data-ready="true">
            <main class="login">
            <h1>navlog</h1>
            <form method="post" action="/login" data-testid="login-form">
            <label for="key">Read key</label>
            <input id="key" name="key" type="password" autocomplete="current-password" required autofocus data-testid="login-key">
            <input type="hidden" name="next" value="\(MarkupText.escaped(safeReturn(path)))">
            \(note)
            <button type="submit" data-testid="login-submit">Sign in</button>
            </form>
            </main>
            </body>
            </html>

            """
        var headers = ViewerRoutes.pageHeaders(contentType: "text/html; charset=utf-8")
        headers[.wwwAuthenticate] = "Bearer"
        return Response(status: .unauthorized, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `path` when it is a path of this server (`/…`, not `//host…`), else `/`:
    /// a sign-in never sends the browser to another site.
    static func safeReturn(_ path: String) -> String {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
              !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return "/" }
        return path
    }
}
