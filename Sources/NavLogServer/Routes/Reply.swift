import Dispatch
import Hummingbird

/// The bodies of the API's answers, and the thread reads run on.
enum Reply {
    /// A JSON answer: `text` and its `\n`, as the commands print it.
    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// An NDJSON answer: the lines as they are, each with its `\n`.
    static func ndjson(_ bytes: [UInt8]) -> Response {
        Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Runs a read (blocking file I/O and folding) on a thread of
    /// Dispatch's pool, not on the tasks that serve requests.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A request's query, read into the types the routes take: a value that
/// does not read is a 400 naming the parameter.
struct Query {
    let request: Request

    func string(_ name: String) -> String? { request.uri.queryParameters.get(name) }

    /// An integer ≥ `minimum`, or `nil` when absent.
    func integer(_ name: String, minimum: Int = 0, maximum: Int = .max) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), value >= minimum, value <= maximum else {
            throw APIError.badRequest("\(name): expected an integer from \(minimum)\(maximum == .max ? " up" : " to \(maximum)"), got \"\(text)\"")
        }
        return value
    }

    /// A string that must be there and not empty.
    func required(_ name: String) throws -> String {
        guard let value = string(name), !value.isEmpty else { throw APIError.badRequest("\(name) is required") }
        return value
    }
}
