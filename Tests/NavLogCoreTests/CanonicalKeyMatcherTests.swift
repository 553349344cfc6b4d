import Testing
@testable import NavLogCore

/// The two-word key matcher knows every key the contract defines, and only
/// those, spelled exactly.
@Suite("Canonical key matcher")
struct CanonicalKeyMatcherTests {
    static func match(_ text: String) -> CanonicalKey? {
        let bytes = Array((text + String(repeating: " ", count: 20)).utf8)
        return bytes.withUnsafeBytes { CanonicalKeyMatcher().match($0, at: 0)?.key }
    }

    @Test(arguments: CanonicalKey.allCases)
    func everyKeyIsRecognised(key: CanonicalKey) {
        #expect(Self.match("\"\(key.name)\":") == key)
        #expect(Self.match("\"\(key.name)\":\"value\"") == key)
        #expect(Self.match("\"\(key.name)x\":") == nil)
        #expect(Self.match("\"\(key.name)\" :") == nil)
        #expect(Self.match("\"\(key.name.dropLast())\":") == nil || key.name.dropLast() == "tab")
        #expect(Self.match("\"\(key.name.uppercased())\":") == nil)
    }

    @Test func tooNearTheEndIsLeftToTheScanner() {
        let bytes = Array("\"seq\":1}".utf8)
        #expect(bytes.withUnsafeBytes { CanonicalKeyMatcher().match($0, at: 0) } == nil)
    }
}
