import Testing
import NavLogCore

/// Every field docs/events.md defines is recognised however its name is
/// spelled in JSON (plainly, with a space before the colon, with an escape,
/// as the line's last member), and only that exact name: a near miss is an
/// extra field, or a missing one when the kind needs it. One line per kind
/// covers every known field.
@Suite("Field names")
struct FieldNameTests {
    static let t = #""t":"2026-11-20T10:00:00.000Z""#
    static let lines: [String] = [
        #"{"app":{"v":"1"},"device":{"m":"x"},"seq":1,"session":"s-1",\#(t),"type":"session.start"}"#,
        #"{"seq":2,"session":"s-1",\#(t),"tabs":["a","b"],"type":"tabs.define"}"#,
        #"{"hidden":true,"seq":3,"session":"s-1",\#(t),"tab":"a","type":"tab.visibility"}"#,
        #"{"seq":4,"session":"s-1","stack":"home",\#(t),"type":"stack.push","value":{"id":"7","type":"Recipe"}}"#,
        #"{"count":2,"seq":5,"session":"s-1","stack":"home",\#(t),"type":"stack.pop"}"#,
        #"{"path":[{"type":"A"}],"seq":6,"session":"s-1","stack":"home",\#(t),"type":"stack.set"}"#,
        #"{"column":"detail","selection":[{"type":"A"}],"seq":7,"session":"s-1","split":"main",\#(t),"type":"split.select"}"#,
        #"{"seq":8,"session":"s-1","split":"main",\#(t),"type":"split.visibility","visibility":"all"}"#,
        #"{"modal":"m","seq":9,"session":"s-1","style":"sheet",\#(t),"type":"modal.present"}"#,
        #"{"seq":10,"session":"s-1",\#(t),"type":"url.open","url":"app://x"}"#,
        #"{"seq":11,"session":"s-1","sizeClass":"compact",\#(t),"type":"layout.change"}"#,
        #"{"cause":3,"label":"buy","meta":{"k":"v"},"scene":"s2","seq":12,"session":"s-1",\#(t),"type":"mark"}"#,
        #"{"seq":13,"session":"s-1","state":{"stacks":{"home":[{"id":"12","type":"Recipe"}]}},\#(t),"type":"state.restore"}"#,
    ]

    /// The line's members as written (canonical order), with `key`'s name
    /// spelled `spelling` and, with `last`, moved to the end.
    static func line(_ line: String, spelling key: String, as spelling: String, last: Bool = false) throws -> String {
        guard case .object(let members) = try JSONValue.parse(line) else { throw EventParseError.notAnObject(found: "") }
        var order = members.keys.sorted(by: utf8Less)
        if last { order.removeAll { $0 == key }; order.append(key) }
        let written = order.map { name -> String in
            var value = CanonicalWriter()
            value.write(members[name]!)
            return (name == key ? spelling : "\"\(name)\"") + ":" + value.string
        }
        return "{" + written.joined(separator: ",") + "}"
    }

    static func keys(_ line: String) throws -> [String] {
        guard case .object(let members) = try JSONValue.parse(line) else { return [] }
        return members.keys.sorted()
    }

    @Test(arguments: lines)
    func everyKnownNameIsRecognisedHoweverItIsWritten(line: String) throws {
        let event = try EventParser.parse(line)
        #expect(event.extra.isEmpty)
        #expect(event.canonicalLine == line)
        var parser = EventLineParser()
        for key in try Self.keys(line) {
            let escaped = "\"\\u\(String(key.unicodeScalars.first!.value, radix: 16).leftPadded(4))\(key.dropFirst())\""
            for spelling in ["\"\(key)\"", "\"\(key)\" ", escaped] {
                for last in [false, true] {
                    let text = try Self.line(line, spelling: key, as: spelling, last: last)
                    #expect(try parser.parse(Array(text.utf8)) == event, "\(text)")
                }
            }
        }
    }

    @Test(arguments: lines)
    func aNearMissIsAnExtraFieldOrAMissingOne(line: String) throws {
        let event = try EventParser.parse(line)
        var parser = EventLineParser()
        var extras = 0
        for key in try Self.keys(line) {
            for near in [key + "x", String(key.dropLast()), key.uppercased(), "x" + key] where near != key {
                for last in [false, true] {
                    let text = try Self.line(line, spelling: key, as: "\"\(near)\"", last: last)
                    do {
                        let parsed = try parser.parse(Array(text.utf8))
                        #expect(parsed.extra[near] != nil, "\(text)")
                        #expect(parsed != event)
                        extras += 1
                    } catch {
                        #expect(error == .missingField(field: key), "\(text)")
                    }
                }
            }
        }
        #expect(extras > 0)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
