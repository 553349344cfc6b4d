import Hummingbird
import Logging

/// Turns whatever a route throws into the API's one error form
/// (``APIError``): Hummingbird's own errors keep their status with their
/// message; anything else is a 500, logged.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            return try APIError(status: error.status, message: message, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            return try APIError(status: .internalServerError, message: "internal error: \(error)").response(from: request, context: context)
        }
    }
}
