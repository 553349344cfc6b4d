// Limits/: What an upload may be: its body size, gzip.

import Hummingbird
import NavLogStore

/// Reads an upload's body within the limits: at most
/// ``CollectorUpload/Limits/maxBytes`` as sent, and as many once
/// decompressed (`Content-Encoding: gzip`, inflated as it arrives, so a
/// body that inflates to far more stops at the limit with bounded memory).
enum UploadBody {
    /// The body's bytes, decompressed.
    ///
    /// - Throws: ``APIError``: 413 over the limit, 400 for a body that is
    ///   not gzip when it says so, or an encoding other than gzip or identity.
    static func read(_ request: Request, limits: CollectorUpload.Limits) async throws -> [UInt8] {
        let limit = limits.maxBytes
        let tooLarge = APIError.tooLarge("the body is over the limit of \(limit) bytes (\(limit >> 20) MiB, after decompression)")
        switch request.headers[.contentEncoding]?.lowercased() {
        case nil, "identity":
            var bytes: [UInt8] = []
            for try await piece in request.body {
                guard bytes.count + piece.readableBytes <= limit else { throw tooLarge }
                bytes.append(contentsOf: piece.readableBytesView)
            }
            return bytes
        case "gzip", "x-gzip":
            let inflater: GzipInflater
            do { inflater = try GzipInflater(limit: limit) } catch { throw APIError.badRequest(error.description) }
            var sent = 0
            func refusal(_ error: GzipInflater.Failure) -> APIError {
                switch error {
                case .overLimit: tooLarge
                case .notGzip: APIError.badRequest(error.description)
                }
            }
            for try await piece in request.body {
                sent += piece.readableBytes
                guard sent <= limit else { throw tooLarge }
                do { try piece.withUnsafeReadableBytes { try inflater.append($0) } } catch let error as GzipInflater.Failure {
                    throw refusal(error)
                }
            }
            do { return try inflater.finish() } catch { throw refusal(error) }
        case let other?:
            throw APIError.badRequest("Content-Encoding \(other) is not accepted (gzip or identity)")
        }
    }
}
