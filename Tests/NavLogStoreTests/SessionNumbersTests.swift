import Testing
@testable import NavLogStore

/// `SessionNumbers` numbers ids in the order first seen, by their exact bytes.
@Suite("Session numbers")
struct SessionNumbersTests {
    @Test func idsAreNumberedInOrderAndFoundAgain() {
        var numbers = SessionNumbers()
        // Short and long ids, many differing only in their last byte or two,
        // the empty id, and canonically equivalent ones.
        var ids: [String] = ["", "caf\u{E9}", "cafe\u{301}", "a", "ab", "abc"]
        for i in 0..<3000 { ids.append("s-\(String(i, radix: 10))") }
        for i in 0..<300 { ids.append(String(repeating: "x", count: i % 41) + "\(i)") }
        ids.append(String(repeating: "é", count: 200))
        var seen: [[UInt8]: Int] = [:]
        for id in ids where seen[Array(id.utf8)] == nil {
            let (number, isNew) = numbers.number(of: id)
            #expect(isNew && number == seen.count, "\(id)")
            seen[Array(id.utf8)] = number
        }
        #expect(numbers.count == seen.count)
        for id in ids.reversed() {
            let (number, isNew) = numbers.number(of: id)
            #expect(!isNew && number == seen[Array(id.utf8)], "\(id)")
            #expect(numbers.key(number) == Array(id.utf8))
        }
        #expect(numbers.number(of: "caf\u{E9}").number != numbers.number(of: "cafe\u{301}").number)
        let bytes = Array("s-42".utf8)
        #expect(bytes.withUnsafeBytes { numbers.number(of: $0) } == (numbers.number(of: "s-42").number, false))
    }
}
