import Testing
@testable import NavLogCore

/// The eight-bytes-at-a-time test behind the parsers' string scans, the
/// writer's escaping check and the session skim: every byte value, at every
/// place in a word, after plain bytes and after other special bytes.
@Suite("Plain string run")
struct PlainStringRunTests {
    static func isSpecial(_ b: UInt8, controlBytes: Bool, nonASCII: Bool) -> Bool {
        b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || (controlBytes && b < 0x20) || (nonASCII && b >= 0x80)
    }

    @Test(arguments: [(false, false), (true, false), (true, true)])
    func theFirstSpecialByteOfAWordIsFound(controlBytes: Bool, nonASCII: Bool) {
        for filler: UInt8 in [UInt8(ascii: "a"), 0x7E, 0x20] {
            for byte in 0...255 {
                for place in 0..<8 {
                    var word = [UInt8](repeating: filler, count: 8)
                    word[place] = UInt8(byte)
                    // Whatever follows the byte must not move the answer.
                    if place < 7 { word[7] = 0x00 }
                    let v = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let flags = PlainStringRun.specialBytes(in: v, controlBytes: controlBytes, nonASCII: nonASCII)
                    let expected = word.firstIndex { Self.isSpecial($0, controlBytes: controlBytes, nonASCII: nonASCII) }
                    let found = flags == 0 ? nil : flags.trailingZeroBitCount >> 3
                    #expect(found == expected, "byte \(byte) at \(place), filler \(filler)")
                }
            }
        }
    }

    @Test func theRunEndsAtTheFirstSpecialByteOrTheLastPartialWord() {
        let bytes = Array(#"abcdefghijklmnop"quotedé"#.utf8)
        let end = bytes.withUnsafeBytes { PlainStringRun.end(in: $0.baseAddress!, count: $0.count, from: 0) }
        #expect(end == 16)
        let plain = Array("abcdefghij".utf8)
        let tail = plain.withUnsafeBytes { PlainStringRun.end(in: $0.baseAddress!, count: $0.count, from: 0) }
        #expect(tail == 8)
    }
}
