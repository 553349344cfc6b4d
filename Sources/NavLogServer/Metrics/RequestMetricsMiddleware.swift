import Hummingbird

/// Counts every request by route and status (``CollectorMetrics/request(route:status:)``).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: CollectorMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics.request(route: context.endpointPath ?? "unmatched", status: response.status.code)
        return response
    }
}
