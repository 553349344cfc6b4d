/// An event as `bisect` shows it: on one line (`seq N  time  scene  type
/// {fields}`) or as its canonical JSON object.
public enum EventSummary {
    /// The line, or `ended` when there is no event.
    public static func line(_ event: Event?, ended: String) -> String {
        guard let event else { return ended }
        var writer = CanonicalWriter()
        writer.write(event)
        return "seq \(event.seq)  \(event.t.rfc3339)  \(ReadableText.name(event.sceneID))  \(ReadableText.escaped(event.type))  \(ReadableText.escaped(writer.string))"
    }

    public static func json(_ event: Event) -> JSONValue {
        var writer = CanonicalWriter()
        writer.write(event)
        return (try? JSONValue.parse(writer.string)) ?? .null
    }
}
