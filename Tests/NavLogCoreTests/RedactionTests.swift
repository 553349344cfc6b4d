import Testing
import NavLogCore

/// `--redact`'s keyed hash and what it removes.
@Suite("Redaction")
struct RedactionTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    @Test func sha256AndHMACMatchTheStandardVectors() {
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231 test cases 2 and 6 (a key longer than a block).
        #expect(Self.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                     message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func routeIdsAreHashedAndPayloadsDropped() throws {
        let redactor = EventRedactor(key: Array("k".utf8))
        let line = #"{"session":"s","seq":1,"t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"home","value":{"type":"Recipe","id":"pie","data":{"secret":1}},"meta":{"user":"ann"},"extra":"x"}"#
        let event = redactor.redact(try EventParser.parse(line))
        let hashed = redactor.hash("pie")
        #expect(hashed.hasPrefix("h-") && hashed.count == 18)
        #expect(event.canonicalLine == #"{"seq":1,"session":"s","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"\#(hashed)","type":"Recipe"}}"#)
        #expect(EventRedactor(key: Array("k".utf8)).hash("pie") == hashed)
        #expect(EventRedactor(key: Array("other".utf8)).hash("pie") != hashed)
        #expect(redactor.hash("tart") != hashed)
    }

    @Test func restoredStatesAreRedactedToo() throws {
        let redactor = EventRedactor(key: Array("k".utf8))
        let line = #"{"session":"s","t":"2026-11-20T10:00:00Z","type":"state.restore","state":{"stacks":{"main":[{"type":"Recipe","id":"pie","data":7}]},"splits":{"main":{"detail":[{"type":"Note","id":"n1"}]}}}}"#
        let event = redactor.redact(try EventParser.parse(line))
        let text = event.canonicalLine
        #expect(!text.contains("pie") && !text.contains("n1") && !text.contains("\"data\""))
        #expect(text.contains(redactor.hash("pie")) && text.contains(redactor.hash("n1")))
        var state = NavigationState(session: "s")
        state.apply(event)
        #expect(state.scenes["main"]?.stacks["main"]?.first?.id == redactor.hash("pie"))
    }
}
