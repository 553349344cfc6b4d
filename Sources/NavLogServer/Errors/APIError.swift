// Errors/: The one JSON error form of the API, and the middleware that sends it.

import Hummingbird
import NavLogCore

/// An error answer of the API: its status and one line, sent as
/// `{"error":"…"}` (schemas/openapi.yaml, `Error`). Every error a route or
/// middleware throws becomes one of these in one place
/// (``APIErrorMiddleware``).
struct APIError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, message: message) }
    static func tooLarge(_ message: String) -> APIError { APIError(status: .contentTooLarge, message: message) }

    /// No key, or one that does not grant what is asked.
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

    /// The writer is behind: retry after `seconds`.
    static func busy(_ message: String, retryAfter seconds: Int) -> APIError {
        APIError(status: .tooManyRequests, message: message, headers: [.retryAfter: String(seconds)])
    }

    /// The body of the answer: `{"error":"…"}`.
    var json: String { JSONValue.object(["error": .string(message)]).canonicalText }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: json + "\n")))
    }
}
