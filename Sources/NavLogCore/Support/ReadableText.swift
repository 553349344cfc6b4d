/// A value from an event — a session id, a scene, a stack, a tab, a label,
/// a route's type or id — as the readable outputs print it.
///
/// Control characters are written as JSON writes them (`\n`, `\t`,
/// `\u001b`, …): C0, DEL, C1, and the Unicode line and paragraph
/// separators. So a value can neither drive the terminal (an escape
/// sequence in a stack id) nor break a line of a table; every other
/// character is printed as it is. The JSON outputs are not touched: they
/// carry the exact value, escaped as JSON.
///
/// ```swift
/// ReadableText.escaped("ma\u{1B}[2Jin")   // #"ma\u001b[2Jin"#
/// ReadableText.name("")                   // #""""#
/// ```
public enum ReadableText {
    /// `text` with its control characters escaped; `text` itself when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }

    /// An id or label as shown: escaped, and `""` when it is empty, so that it cannot vanish.
    public static func name(_ text: String) -> String { text.isEmpty ? "\"\"" : escaped(text) }

    /// A route value's screen name (`type` or `type/id`), escaped.
    public static func screen(_ value: RouteValue) -> String { escaped(value.screenName) }

    /// Whether `scalar` is printed as an escape.
    @inline(__always)
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029
    }
}
