// Viewer/: The browser viewer: its routes, sign-in page and form, and `Assets/` (HTML, CSS, JavaScript modules).

/// The fields of a form body (`application/x-www-form-urlencoded`), as a
/// browser sends the sign-in form: `name=value` pairs joined by `&`, `+`
/// for a space, `%XX` for a byte. A field given twice counts once, its
/// first value; a pair that does not decode is left out.
enum FormFields {
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decoded(parts[0]), let value = decoded(parts.count > 1 ? parts[1] : "") else { continue }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    /// `text` with `+` as a space and `%XX` as its byte; `nil` when not UTF-8 or a `%` is not followed by two hex digits.
    static func decoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = utf8.next().flatMap(hex), let low = utf8.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
