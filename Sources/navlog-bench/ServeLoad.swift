#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The load `navlog-bench serve` puts on a server: batches of one session's
/// canonical events (made by `navlog generate`), gzip, sent by threads on
/// keep-alive connections.
struct SessionBatches: Sendable {
    /// Each template session's NDJSON cut around its `"session":"ID"`, so a
    /// copy under another id is the pieces joined by the new member.
    private let pieces: [[[UInt8]]]
    /// Events per template session.
    let counts: [Int]
    var count: Int { pieces.count }

    /// Reads `navlog generate`'s output (sessions one after another).
    init(ndjson path: String) throws(BenchmarkFailure) {
        guard let bytes = readBytes(path) else { throw BenchmarkFailure("cannot read \(path)") }
        var pieces: [[[UInt8]]] = [], counts: [Int] = []
        var current: [UInt8] = [], id = "", events = 0
        func flush() {
            guard events > 0 else { return }
            let marker = Array("\"session\":\(JSONText.quoted(id))".utf8)
            pieces.append(Self.split(current, around: marker))
            counts.append(events)
        }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self)
            guard let start = text.firstRange(of: "\"session\":\"") else { continue }
            let lineID = String(text[start.upperBound...].prefix { $0 != "\"" })
            if lineID != id { flush(); current = []; events = 0; id = lineID }
            current += line
            current.append(UInt8(ascii: "\n"))
            events += 1
        }
        flush()
        guard !pieces.isEmpty else { throw BenchmarkFailure("no sessions in \(path)") }
        self.pieces = pieces
        self.counts = counts
    }

    /// Template `index`'s events as session `id`, uncompressed.
    func ndjson(_ index: Int, as id: String) -> [UInt8] {
        let member = Array("\"session\":\(JSONText.quoted(id))".utf8)
        let parts = pieces[index % pieces.count]
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(0) { $0 + $1.count } + parts.count * member.count)
        for (i, part) in parts.enumerated() {
            if i > 0 { out += member }
            out += part
        }
        return out
    }

    /// Template `index`'s events as session `id`, gzip.
    func gzip(_ index: Int, as id: String) -> [UInt8] { GzipBody.compress(ndjson(index, as: id)) }

    private static func split(_ bytes: [UInt8], around marker: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = [], start = 0, i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == marker[0], Array(bytes[i..<i + marker.count]) == marker {
                parts.append(Array(bytes[start..<i]))
                i += marker.count
                start = i
            } else { i += 1 }
        }
        parts.append(Array(bytes[start...]))
        return parts
    }
}

/// A JSON string literal for an id (ids here are plain ASCII).
enum JSONText {
    static func quoted(_ s: String) -> String { "\"" + s + "\"" }
}

/// The headers of a gzip upload, with a key when one is given.
func uploadHeaders(key: String?) -> [(String, String)] {
    var headers = [("Content-Type", "application/x-ndjson"), ("Content-Encoding", "gzip")]
    if let key { headers.append(("Authorization", "Bearer \(key)")) }
    return headers
}

/// The `"stored"` count of an upload's answer, or `nil`.
func storedCount(_ body: String) -> Int? {
    guard let range = body.firstRange(of: "\"stored\":") else { return nil }
    return Int(body[range.upperBound...].prefix { $0.isNumber })
}

/// What one load thread saw.
struct LoadTally: Sendable {
    var requests = 0
    var ok = 0
    var stored = 0
    var statuses: [Int: Int] = [:]
    var errors = 0
    var latencies: [Double] = []
    /// Sessions whose upload was answered 200 (the kill load's ledger), with their event counts.
    var acknowledged: [(String, Int)] = []

    mutating func merge(_ other: LoadTally) {
        requests += other.requests; ok += other.ok; stored += other.stored; errors += other.errors
        for (k, v) in other.statuses { statuses[k, default: 0] += v }
        latencies += other.latencies
        acknowledged += other.acknowledged
    }

    /// Uploads `body` (`POST /v1/events`) on `connection`, opened to `port`
    /// first when there is none, and counts it: the request, its status and
    /// latency, a 200 as ok; a connection closed by the answer is dropped.
    /// A failure is counted as an error, drops the connection and waits
    /// `errorPause` microseconds. The answer, or `nil` after a failure.
    mutating func upload(_ body: [UInt8], key: String? = nil, port: Int, over connection: inout HTTPConnection?,
                         timeoutSeconds: Int = 10, errorPause: UInt32 = 10_000) -> HTTPConnection.Response? {
        do {
            if connection == nil { connection = try HTTPConnection(port: port, timeoutSeconds: timeoutSeconds) }
            let sent = monotonicSeconds()
            let response = try connection!.request("POST", "/v1/events", headers: uploadHeaders(key: key), body: body)
            latencies.append(monotonicSeconds() - sent)
            requests += 1
            statuses[response.status, default: 0] += 1
            if response.status == 200 { ok += 1 }
            if response.closes { connection = nil }
            return response
        } catch {
            errors += 1
            connection = nil
            usleep(errorPause)
            return nil
        }
    }
}

/// Runs `body(i)` on `count` threads, and `meanwhile` on this one, and
/// waits for them all; merges what the threads return.
func runLoadThreads(_ count: Int, meanwhile: () -> Void = {}, _ body: @escaping @Sendable (Int) -> LoadTally) -> LoadTally {
    final class Job: @unchecked Sendable {
        // Written by its one thread, read after the group's wait.
        let run: () -> LoadTally
        var result = LoadTally()
        init(_ run: @escaping () -> LoadTally) { self.run = run }
    }
    let finished = DispatchGroup()
    var jobs: [Job] = []
    for i in 0..<count {
        let job = Job { body(i) }
        jobs.append(job)
        finished.enter()
        let thread = Thread {
            job.result = job.run()
            finished.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    meanwhile()
    finished.wait()
    var total = LoadTally()
    for job in jobs { total.merge(job.result) }
    return total
}

/// The value at fraction `q` of sorted `values` (0 when empty).
func percentile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
}

/// A port that changes when the server restarts, and a stop flag, shared by load threads.
final class LoadControl: Sendable {
    let port: Atomic<Int>
    let stopped = Atomic<Bool>(false)
    init(port: Int) { self.port = Atomic(port) }
}
