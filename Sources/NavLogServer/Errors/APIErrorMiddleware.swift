import Hummingbird
import Logging

/// Turns whatever a route throws into the API's one error form
/// (``APIError``): Hummingbird's own errors keep their status with their
/// message (a known path asked with another method is a 405); anything
/// else is a 500, logged.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError where error.status == .notFound && RouteTable.methods(for: request.uri.path) != nil {
            let allowed = RouteTable.methods(for: request.uri.path)!.map(\.rawValue).joined(separator: ", ")
            return try APIError(status: .methodNotAllowed, message: "\(request.method) is not a method of \(request.uri.path) (\(allowed))",
                                headers: [.allow: allowed]).response(from: request, context: context)
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            return try APIError(status: error.status, message: message, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(error)")
            return try APIError(status: .internalServerError, message: "internal error: \(error)").response(from: request, context: context)
        }
    }
}
