// Support/: Small helpers of the core: interned strings, short names and bytes, readable and markup text, SHA-256.

/// Text made safe inside XML or HTML, in element content and in quoted
/// attribute values: the one escaping rule of the funnel chart's SVG and the
/// viewer's server-made pages.
///
/// ```swift
/// MarkupText.escaped("Tom & \"Jerry\" <3")   // Tom &amp; &quot;Jerry&quot; &lt;3
/// ```
public enum MarkupText {
    /// `text` with `& < > " '` as entities and the control characters XML 1.0
    /// forbids (all below U+0020 but tab and newline) as U+FFFD.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if c.value < 0x20 && c != "\t" && c != "\n" { out += "\u{FFFD}" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}
