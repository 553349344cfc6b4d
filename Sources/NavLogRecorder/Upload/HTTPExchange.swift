// Upload/: The recorder's uploader: sessions sent to a collector, retried, their progress kept.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NavLogStore

/// Sends requests through one URLSession and waits for their answers on
/// the calling thread (the uploader's own); ``cancel()`` from any thread
/// ends the request in flight and every later one.
final class HTTPExchange: @unchecked Sendable {
    /// An answer, or why there is none.
    enum Answer: Sendable {
        /// The status, `Retry-After` in seconds when given, and the body.
        case response(status: Int, retryAfter: Int?, body: Data)
        case failed(String)
        case cancelled
    }

    private let session: URLSession
    /// Whether ``cancel()`` was called.
    private let cancelled = Locked(false)

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` and waits for its answer.
    func send(_ request: URLRequest) -> Answer {
        let slot = AnswerSlot()
        // The task is made under the lock: never in a session cancel() invalidated.
        let started = cancelled.withLock { cancelled -> Bool in
            if cancelled { return false }
            startTask(request, answering: slot)
            return true
        }
        return started ? slot.wait() : .cancelled
    }

    private func startTask(_ request: URLRequest, answering slot: AnswerSlot) {
        let task = session.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                slot.fill(.response(status: response.statusCode,
                                    retryAfter: Self.retryAfter(response), body: data ?? Data()))
            } else if let error = error as? URLError, error.code == .cancelled {
                slot.fill(.cancelled)
            } else {
                slot.fill(.failed(error.map { Self.reason($0) } ?? "no answer"))
            }
        }
        task.resume()
    }

    /// Cancels the request in flight and closes the connections; later
    /// requests are not sent.
    func cancel() {
        cancelled.withLock { $0 = true }
        session.invalidateAndCancel()
    }

    /// `Retry-After` as a number of seconds (the HTTP-date form is not used by collectors).
    private static func retryAfter(_ response: HTTPURLResponse) -> Int? {
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, name.lowercased() == "retry-after", let value = value as? String {
                return Int(value.trimmingCharacters(in: .whitespaces)).map { max($0, 0) }
            }
        }
        return nil
    }

    /// A failure in a few words (Foundation on Linux describes every
    /// URLError as "The operation could not be completed").
    private static func reason(_ error: Error) -> String {
        guard let error = error as? URLError else { return String(describing: error) }
        let words: String
        switch error.code {
        case .cannotConnectToHost: words = "cannot connect to the collector"
        case .timedOut: words = "no answer in time"
        case .networkConnectionLost: words = "the connection was lost"
        case .notConnectedToInternet: words = "no network"
        case .cannotFindHost, .dnsLookupFailed: words = "the collector's host is not found"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            words = "the secure connection failed"
        default: words = "the request failed"
        }
        return "\(words) (URLError \(error.code.rawValue))"
    }
}

/// Where a completion handler leaves its answer for the waiting thread.
private final class AnswerSlot: Sendable {
    private let answer = Locked<HTTPExchange.Answer?>(nil)

    func fill(_ value: HTTPExchange.Answer) {
        answer.withLock { $0 = value }
        answer.broadcast()
    }

    func wait() -> HTTPExchange.Answer {
        answer.withLock(when: { $0 != nil }) { $0! }
    }
}
