import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NavLogStore

/// One `POST /v1/events` and what its answer means for the uploader.
struct UploadRequest {
    /// What the uploader does after a request.
    enum Outcome: Sendable {
        /// 200: the events are stored (the counts from the answer).
        case acknowledged(stored: Int, duplicates: Int, rejected: Int)
        /// 413: the request was too large.
        case tooLarge(UploadProblem)
        /// 429: try again after `seconds` (its `Retry-After`).
        case slowDown(seconds: Int, UploadProblem)
        /// No answer, 5xx, 400, 401 or another status: retry after a pause
        /// (a 400 is the request as a whole: the lines the collector cannot
        /// take are listed in a 200's `rejected`).
        case retry(UploadProblem)
        /// The uploader is stopping: the request was cancelled.
        case cancelled
    }

    /// NDJSON events (canonical lines, each ending in `\n`).
    let body: [UInt8]
    let session: String
    let options: UploadOptions

    /// The URL request: headers, body (gzip-compressed when the options say so).
    func urlRequest() throws(FileError) -> URLRequest {
        var request = URLRequest(url: options.eventsURL)
        request.httpMethod = "POST"
        request.timeoutInterval = Double(options.requestTimeoutMilliseconds) / 1000
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.setValue(session, forHTTPHeaderField: "Navlog-Session")
        if let key = options.key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if options.gzip {
            request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
            request.httpBody = Data(try Gzip.compress(body))
        } else {
            request.httpBody = Data(body)
        }
        return request
    }

    /// What an answer (or its absence) means.
    func outcome(of answer: HTTPExchange.Answer) -> Outcome {
        let url = options.eventsURL.absoluteString
        switch answer {
        case .cancelled:
            return .cancelled
        case .failed(let reason):
            return .retry(.unreachable(url: url, reason: reason))
        case .response(let code, let retryAfter, let data):
            let text = Self.excerpt(data)
            let problem = UploadProblem.status(url: url, code: code, body: text)
            switch code {
            case 200:
                guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let stored = object["stored"] as? Int, let duplicates = object["duplicates"] as? Int
                else { return .retry(.badAnswer(url: url, body: text)) }
                let rejected = (object["rejected"] as? [Any])?.count ?? 0
                return .acknowledged(stored: stored, duplicates: duplicates, rejected: rejected)
            case 413: return .tooLarge(problem)
            case 429: return .slowDown(seconds: retryAfter ?? 1, problem)
            default: return .retry(problem)
            }
        }
    }

    /// The start of an answer's body on one line, for messages.
    private static func excerpt(_ data: Data) -> String {
        let text = String(decoding: data.prefix(200), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
