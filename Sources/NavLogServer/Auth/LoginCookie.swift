/// The viewer's key cookie: `navlog_key`, set by `POST /login` once a
/// read (or write) key is given, sent back by the browser with every
/// request of the same origin. It is `HttpOnly` (no script reads it),
/// `SameSite=Strict` (another site's page cannot make the browser send it)
/// and `Path=/`. The key is kept as hexadecimal, so that any key of a keys
/// file is a valid cookie value. It grants reads only: uploads keep
/// needing `Authorization: Bearer` with a write key.
enum LoginCookie {
    static let name = "navlog_key"

    /// The `Set-Cookie` value that keeps `key`.
    static func setting(_ key: String) -> String {
        "\(name)=\(hex(key)); HttpOnly; SameSite=Strict; Path=/"
    }

    /// The `Set-Cookie` value that makes the browser forget the cookie.
    static let clearing = "\(name)=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"

    /// The key a cookie value holds, or `nil` when it is not one this server set.
    static func key(_ value: Substring) -> String? {
        guard !value.isEmpty, value.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count / 2)
        var high: UInt8?
        for byte in value.utf8 {
            guard let nibble = nibble(byte) else { return nil }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The cookie's value in a request's `Cookie` headers, if any.
    static func value(in headers: [String]) -> Substring? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop(while: { $0 == " " })
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                return trimmed[trimmed.index(after: equals)...]
            }
        }
        return nil
    }

    private static func hex(_ key: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in key.utf8 { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
