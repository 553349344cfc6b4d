import Foundation
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `navlog serve` under test on 127.0.0.1 (a port of its own picking),
/// and plain HTTP to it through `curl` (loopback only, no proxy, bounded in time).
final class ServedStore: @unchecked Sendable {
    let process: FollowingProcess
    /// `http://127.0.0.1:PORT`.
    let url: String

    /// Starts `navlog serve --store store --listen 127.0.0.1:0` with `extra`
    /// arguments (the built `navlog`, or `executable`) and waits until it listens.
    init(store: String, _ extra: [String] = [], executable: String = navlogBinary()) throws {
        process = try FollowingProcess(["serve", "--store", store, "--listen", "127.0.0.1:0"] + extra, executable: executable)
        let deadline = Date().addingTimeInterval(60)
        var found: String?
        while found == nil, Date() < deadline, process.stillRunning(after: 0) {
            found = process.errorText.split(separator: "\n").first { $0.hasPrefix("listening on http://") }
                .map { String($0.dropFirst("listening on ".count)) }
            if found == nil { usleep(5_000) }
        }
        guard let found else {
            _ = process.finish(signal: SIGKILL, seconds: 5)
            throw ServeFailure(description: "navlog serve did not listen: \(process.errorText)")
        }
        url = found
    }

    struct ServeFailure: Error, CustomStringConvertible { var description: String }

    /// An answer: its status, headers (names lowercased) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// Sends one request (curl, at most 30 s).
    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) -> Answer {
        var args = ["-sS", "--noproxy", "*", "--max-time", "30", "-i", "-X", method, "-w", "\n%{http_code}"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { args += ["-H", "\(name): \(value)"] }
        if body != nil { args += ["--data-binary", "@-"] }
        args.append(url + path)
        let r = runForBytes("/usr/bin/curl", args, stdin: body)
        var bytes = Data(r.stdout)
        guard let lastNewline = bytes.lastIndex(of: 0x0A) else { return Answer(status: 0, headers: [:], body: Data()) }
        let status = Int(String(decoding: bytes[(lastNewline + 1)...], as: UTF8.self)) ?? 0
        bytes = bytes[..<lastNewline]
        let separator = Data("\r\n\r\n".utf8)
        guard let end = bytes.range(of: separator) else { return Answer(status: status, headers: [:], body: Data()) }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: Data(bytes[end.upperBound...]))
    }

    /// `POST /v1/events` with `text` as its body.
    func upload(_ text: String, headers: [String: String] = [:]) -> Answer {
        request("POST", "/v1/events", body: Data(text.utf8), headers: headers)
    }

    /// Stops it with `signal` (SIGKILL after 60 s); its exit status and standard error.
    func stop(_ signal: Int32 = SIGTERM) -> (status: Int32?, stderr: String) {
        let ended = process.finish(signal: signal, seconds: 60)
        return (ended.status, ended.stderr)
    }
}
