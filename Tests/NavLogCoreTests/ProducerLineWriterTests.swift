import Testing
@testable import NavLogCore

/// ``ProducerLineWriter``: every kind's line, written as another producer
/// writes it, parses back to the same event.
@Suite("Producer line writer")
struct ProducerLineWriterTests {
    static let styles = [
        ProducerLineStyle(offsetMinutes: 120, fractionDigits: 3),
        ProducerLineStyle(offsetMinutes: -300, fractionDigits: 6, subMilliseconds: 999),
        ProducerLineStyle(offsetMinutes: 330, fractionDigits: 5, subMilliseconds: 7, writesSeq: false),
    ]

    @Test("the same event in every style", arguments: CanonicalFormTests.canonicalLines)
    func parsesBackToTheSameEvent(_ line: String) throws {
        let event = try EventParser.parse(line)
        for style in Self.styles {
            var writer = ProducerLineWriter()
            writer.write(event, style: style)
            let written = String(decoding: writer.bytes, as: UTF8.self)
            #expect(written != event.canonicalLine)
            #expect(written.contains(#"": "#))
            #expect(!written.contains(#"Z""#), "\(written)")
            #expect(written.contains(#""seq": "#) == style.writesSeq)
            var again = try EventParser.parse(written)
            if !style.writesSeq { again.seq = event.seq }
            #expect(again.canonicalLine == event.canonicalLine, "\(written)")
        }
    }

    @Test func noKindHasItsKeysSorted() {
        for tag in KindTag.allCases {
            let order = ProducerLineWriter.keyOrder(tag).map(\.name)
            #expect(order != order.sorted(by: utf8Less), "\(tag)")
        }
    }
}
