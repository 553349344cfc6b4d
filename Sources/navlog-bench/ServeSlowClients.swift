import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServeFaults {
    /// `--slow-clients` (1,000) connections held open for `--slow-seconds`
    /// (40): half send a request a byte a second (slowloris), half send
    /// nothing; meanwhile one fast client uploads on its own connection.
    /// Reports the fast client's answers and latency, and when the server
    /// closed the slow ones.
    static func slowClients(_ context: Context) throws {
        let count = try context.options.int("slow-clients", default: 1000)
        let seconds = Double(try context.options.int("slow-seconds", default: 40))
        let store = context.freshStore("slow-store")
        let server = try NavlogServe.bench(navlog: context.navlog, store: store, log: "\(context.work)/slow.log")
        var slow: [HTTPConnection] = []
        var opened: [Double] = []
        for _ in 0..<count {
            slow.append(try HTTPConnection(port: server.port))
            opened.append(monotonicSeconds())
        }
        let trickle = Array("POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        var closedAfter = [Double?](repeating: nil, count: count)
        var sentBytes = [Int](repeating: 0, count: count)
        let batches = context.batches
        let port = server.port
        let start = monotonicSeconds()
        let deadline = start + seconds
        let fast = runLoadThreads(1, meanwhile: {
            while monotonicSeconds() < deadline {
                let tick = monotonicSeconds()
                for (i, connection) in slow.enumerated() where closedAfter[i] == nil {
                    var byte: UInt8 = 0
                    let peeked = recv(connection.fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
                    if peeked >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                        closedAfter[i] = monotonicSeconds() - opened[i]  // closed, reset, or answered (and then closed)
                        continue
                    }
                    if i % 2 == 0, sentBytes[i] < trickle.count {
                        let n = trickle.withUnsafeBytes { send(connection.fd, $0.baseAddress! + sentBytes[i], 1, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                        if n == 1 { sentBytes[i] += 1 }
                    }
                }
                let spent = monotonicSeconds() - tick
                if spent < 1 { usleep(UInt32((1 - spent) * 1e6)) }
            }
        }) { _ in
            var tally = LoadTally()
            var connection: HTTPConnection?
            var n = 0
            while monotonicSeconds() < deadline, tally.requests < 100_000 {
                _ = tally.upload(batches.gzip(n, as: "fast-\(n)"), port: port, over: &connection)
                n += 1
            }
            return tally
        }
        let peak = server.peakRSS
        server.stop(SIGTERM)
        slow.removeAll()
        var table = Table("figure", "measured", "target", "")
        table.add("fast client: uploads answered 200 during \(Int(seconds)) s", "\(fast.ok) of \(fast.requests) (errors \(fast.errors))",
                  "not stopped", fast.ok > 0 && fast.ok == fast.requests ? "met" : "missed")
        table.add("fast client latency p50 / p99", "\(milliseconds(percentile(fast.latencies, 0.5))) / \(milliseconds(percentile(fast.latencies, 0.99)))", "", "")
        for (name, parity) in [("byte-a-second senders", 0), ("silent connections", 1)] {
            let mine = closedAfter.enumerated().filter { $0.offset % 2 == parity }.map(\.element)
            let closed = mine.compactMap { $0 }
            let when = closed.isEmpty ? "" : ", after \(format(Timings.median(closed), digits: 1)) s (median)"
            table.add("\(name): closed by the server", "\(closed.count) of \(mine.count)\(when)", "", "")
        }
        table.add("server peak RSS", mebibytes(peak), "", "")
        table.print()
    }
}
