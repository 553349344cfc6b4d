import NavLogCore

/// The hand-made import fixtures: `Tests/Fixtures/imports/NAME`.
func importFixture(_ name: String) -> String {
    var dir = #filePath
    while let last = dir.last, last != "/" { dir.removeLast() }   // Tests/NavLogCoreTests/
    dir.removeLast()
    while let last = dir.last, last != "/" { dir.removeLast() }   // Tests/
    let path = dir + "Fixtures/imports/" + name
    guard let file = fopen(path, "rb") else { fatalError("missing fixture \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Runs a converter over NDJSON lines (numbered from 1, blank ones skipped):
/// the events, and each rejected line with its reason.
func convertLines<C: ImportConverter>(_ converter: inout C, _ lines: [String]) -> (events: [Event], rejected: [(line: Int, reason: EventParseError)]) {
    var events: [Event] = []
    var rejected: [(Int, EventParseError)] = []
    for (i, line) in lines.enumerated() where !line.isEmpty {
        var produced: [Event] = []
        do { try converter.convert(line, record: i + 1, into: &produced) } catch {
            rejected.append((i + 1, error))
            #expect(produced.isEmpty, "a rejected record yields no events")
            continue
        }
        events.append(contentsOf: produced)
    }
    converter.finish(into: &events)
    return (events, rejected)
}

/// Numbers events per session (1, 2, 3, …) and folds each session.
func foldBySession(_ events: [Event]) -> [String: (state: NavigationState, views: [ScreenView], marks: [String])] {
    var out: [String: (state: NavigationState, views: [ScreenView], marks: [String])] = [:]
    for var event in events {
        var entry = out[event.session] ?? (NavigationState(session: event.session), [], [])
        event.seq = entry.state.seq + 1
        entry.state.apply(event, screenViews: &entry.views)
        if case .mark(let label) = event.kind { entry.marks.append(label) }
        out[event.session] = entry
    }
    return out
}

/// Screen names with runs of the same name collapsed (what a flat stream keeps).
func collapsed(_ names: [String]) -> [String] {
    var out: [String] = []
    for name in names where out.last != name { out.append(name) }
    return out
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
