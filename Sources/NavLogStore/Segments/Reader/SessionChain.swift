/// The chain over a session's events (schemas/segment-store.md §7):
///
///     c_0 = 0,   c_p = XXH64( u64le(c_{p−1}) ‖ u64le(XXH64(n(e_p))) )
///
/// where n(e) is the canonical line without its top-level `session`, `seq`,
/// `t`, `cause` and `meta` members (still a canonical line: keys stay in
/// order). Two sessions whose chains agree at p have equal scenes up to p.
enum SessionChain {
    /// The members n(e) drops.
    private static let dropped: [[UInt8]] = ["session", "seq", "t", "cause", "meta"].map { Array("\"\($0)\"".utf8) }

    /// c_p from c_{p−1} and the p-th canonical line.
    static func link(_ previous: UInt64, line: UnsafeRawBufferPointer) -> UInt64 {
        StateChain.link(previous, identityFreeHash(line))
    }

    /// XXH64 of n(e). A line that is not a flat-scannable object hashes as it is.
    static func identityFreeHash(_ line: UnsafeRawBufferPointer) -> UInt64 {
        var out: [UInt8] = []
        out.reserveCapacity(line.count)
        guard strip(line, into: &out) else { return XXHash64.hash(line) }
        return XXHash64.hash(out)
    }

    /// Copies the object `line` without the dropped members into `out`.
    static func strip(_ line: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        let n = line.count
        guard n >= 2, line[0] == UInt8(ascii: "{"), line[n - 1] == UInt8(ascii: "}") else { return false }
        out.append(UInt8(ascii: "{"))
        var i = 1
        var first = true
        while i < n - 1 {
            let memberStart = i
            guard line[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(line, i) else { return false }
            guard keyEnd < n, line[keyEnd] == UInt8(ascii: ":"), let valueEnd = valueEnd(line, keyEnd + 1) else { return false }
            let key = line[memberStart..<keyEnd]
            if !dropped.contains(where: { $0.elementsEqual(key) }) {
                if !first { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: line[memberStart..<valueEnd])
                first = false
            }
            i = valueEnd
            if i < n - 1 {
                guard line[i] == UInt8(ascii: ",") else { return false }
                i += 1
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// The index after the closing quote of the string starting at `start`.
    private static func stringEnd(_ b: UnsafeRawBufferPointer, _ start: Int) -> Int? {
        var i = start + 1
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return nil
    }

    /// The index after the JSON value starting at `start` (no whitespace, as in canonical lines).
    private static func valueEnd(_ b: UnsafeRawBufferPointer, _ start: Int) -> Int? {
        guard start < b.count else { return nil }
        switch b[start] {
        case UInt8(ascii: "\""):
            return stringEnd(b, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(b, i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return nil
        default:
            var i = start
            while i < b.count, b[i] != UInt8(ascii: ","), b[i] != UInt8(ascii: "}") { i += 1 }
            return i
        }
    }
}
