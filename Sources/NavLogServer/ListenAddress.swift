/// Where the server listens: `HOST:PORT`, `[IPv6]:PORT`; port 0 picks a free one.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Reads `127.0.0.1:8080`, `localhost:0`, `[::1]:8080`; `nil` when it is none of these forms.
    public init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") { return nil }
        }
        guard !hostPart.isEmpty, let port = Int(portPart), (0...65535).contains(port) else { return nil }
        host = String(hostPart)
        self.port = port
    }

    /// Whether only this machine can reach it: 127.0.0.0/8, ::1, localhost.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The host as written in a URL (IPv6 in brackets).
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    public var description: String { "\(urlHost):\(port)" }
}
