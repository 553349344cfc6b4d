#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 client on one keep-alive TCP connection to 127.0.0.1,
/// on blocking POSIX sockets, for `navlog-bench serve`'s load generator.
/// Each connection belongs to one thread; send and receive time out, so no
/// request can hang the bench. Reads responses with `Content-Length` or
/// chunked bodies. Not thread-safe.
final class HTTPConnection {
    /// One response: its status and body, and whether the server closes the connection.
    struct Response {
        var status: Int
        var body: [UInt8]
        var closes: Bool
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; send and receive time out after `timeoutSeconds`.
    init(port: Int, timeoutSeconds: Int = 10) throws(BenchmarkFailure) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchmarkFailure("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BenchmarkFailure("connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { close(fd) }

    /// The head of a request for `body`.
    static func head(_ method: String, _ path: String, headers: [(String, String)], bodyCount: Int) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(bodyCount)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Sends a request and reads its response.
    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws(BenchmarkFailure) -> Response {
        try transmit(Self.head(method, path, headers: headers, bodyCount: body.count) + body)
        return try readResponse()
    }

    /// Sends all of `bytes` (without SIGPIPE).
    func transmit(_ bytes: [UInt8]) throws(BenchmarkFailure) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw BenchmarkFailure("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Reads one response.
    func readResponse() throws(BenchmarkFailure) -> Response {
        var headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        headEnd += 4
        pending.removeFirst(headEnd)
        let lines = head.split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw BenchmarkFailure("bad status line: \(lines.first ?? "")")
        }
        var length: Int?, chunked = false, closes = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased(), value = parts[1].trimmingSpaces.lowercased()
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding", value.contains("chunked") { chunked = true }
            if name == "connection", value == "close" { closes = true }
        }
        var body: [UInt8] = []
        if chunked {
            while true {
                let end = try readUntil([13, 10])
                let size = Int(String(decoding: pending[..<end], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
                pending.removeFirst(end + 2)
                try fill(size + 2)
                body += pending[..<size]
                pending.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else if let length {
            try fill(length)
            body = Array(pending[..<length])
            pending.removeFirst(length)
        }
        return Response(status: status, body: body, closes: closes)
    }

    /// Reads until `pending` holds `marker`; returns where it starts.
    private func readUntil(_ marker: [UInt8]) throws(BenchmarkFailure) -> Int {
        var from = 0
        while true {
            if pending.count >= marker.count, from <= pending.count - marker.count {
                for i in from...(pending.count - marker.count) where pending[i] == marker[0] && Array(pending[i..<i + marker.count]) == marker {
                    return i
                }
                from = pending.count - marker.count + 1
            }
            try receiveMore()
        }
    }

    /// Reads until `pending` holds at least `count` bytes.
    private func fill(_ count: Int) throws(BenchmarkFailure) {
        while pending.count < count { try receiveMore() }
    }

    private func receiveMore() throws(BenchmarkFailure) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0, errno == EINTR { return }
        guard n > 0 else {
            throw BenchmarkFailure(n == 0 ? "connection closed by the server" : "recv: \(String(cString: strerror(errno)))")
        }
        pending += buffer[..<n]
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
