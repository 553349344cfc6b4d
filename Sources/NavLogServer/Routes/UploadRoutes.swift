import Hummingbird
import NavLogStore

/// `POST /v1/events` and `POST /v1/logs` (schemas/openapi.yaml): NDJSON or
/// a `.navlog` file, gzip or identity, validated on the request's task,
/// stored by the collector's writer, and answered once durable.
struct UploadRoutes: Sendable {
    let collector: StoreCollector
    let limits: CollectorUpload.Limits
    let metrics: CollectorMetrics

    /// Seconds a client is told to wait when the queue is full.
    static let retryAfterSeconds = 1
    /// The header a request may name its one session in (for a proxy that routes by session).
    static let sessionHeader = HTTPFields.Element.Name("Navlog-Session")!

    func add(to router: Router<BasicRequestContext>) {
        router.post("/v1/events") { request, _ in
            try await upload(request) { body, session, limits throws(CollectorUpload.Refusal) in
                try CollectorUpload(body: body, session: session, limits: limits)
            }
        }
        router.post("/v1/logs") { request, _ in
            try await upload(request) { body, session, limits throws(CollectorUpload.Refusal) in
                try CollectorUpload(log: body, session: session, limits: limits)
            }
        }
    }

    /// Reads the body, makes it an upload with `read`, stores it, and answers.
    func upload(_ request: Request,
                read: (_ body: [UInt8], _ session: String?, _ limits: CollectorUpload.Limits) throws(CollectorUpload.Refusal) -> CollectorUpload)
        async throws -> Response {
        let session = request.headers[Self.sessionHeader]
        if let session, session.isEmpty { throw APIError.badRequest("Navlog-Session is empty") }
        let body = try await UploadBody.read(request, limits: limits)
        let upload: CollectorUpload
        do throws(CollectorUpload.Refusal) { upload = try read(body, session, limits) } catch {
            switch error {
            case .spool: throw APIError(status: .internalServerError, message: error.description)
            default: throw error.isOverLimit ? APIError.tooLarge(error.description) : APIError.badRequest(error.description)
            }
        }
        let answer: CollectorAnswer
        do { answer = try await collector.store(upload) } catch {
            switch error {
            case .busy: throw APIError.busy(error.description, retryAfter: Self.retryAfterSeconds)
            case .closed: throw APIError(status: .serviceUnavailable, message: error.description)
            case .store: throw APIError(status: .internalServerError, message: error.description)
            }
        }
        metrics.upload(stored: answer.stored, duplicates: answer.duplicates, rejected: answer.rejected.count)
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: answer.json + "\n")))
    }
}
