/// A glob over names, as funnels and `navlog replay`'s search use it
/// (docs/analytics.md): only `*` is special and matches any run of characters
/// (none included); matching is whole-string and case-sensitive.
///
/// ```swift
/// GlobPattern("Recipe/*").matches("Recipe/apple-pie")   // true
/// GlobPattern("Recipe/*").matches("recipe/apple-pie")   // false
/// GlobPattern("*").matches("")                          // true
/// ```
public struct GlobPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let description: String
    /// The literal runs between the stars, as UTF-8 (empty before a leading
    /// or after a trailing star).
    private let parts: [[UInt8]]

    public init(_ pattern: String) {
        description = pattern
        parts = Array(pattern.utf8).split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
            .map(Array.init)
    }

    /// Whether the whole of `text` matches.
    ///
    /// UTF-8 is matched byte by byte, which is the same as character by
    /// character since a literal run can only match at character boundaries.
    ///
    /// - Complexity: O(n · m) at worst for a text of n bytes and a pattern of
    ///   m; O(n + m) for the usual patterns (each literal run is found by
    ///   scanning forward once).
    public func matches(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ matches(bytes: $0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { matches(bytes: $0) }
    }

    private func matches(bytes text: UnsafeBufferPointer<UInt8>) -> Bool {
        if parts.count == 1 { return text.elementsEqual(parts[0]) }
        // With stars: the first run is a prefix, the last a suffix, and the
        // runs between are found leftmost, in order, in what remains.
        let first = parts[0]
        let last = parts[parts.count - 1]
        guard text.count >= first.count + last.count else { return false }
        guard text.starts(with: first), text[(text.count - last.count)...].elementsEqual(last) else { return false }
        var position = first.count
        let end = text.count - last.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = Self.find(part, in: text, from: position, to: end) else { return false }
            position = found + part.count
        }
        return true
    }

    /// The first index ≥ `from` at which `needle` occurs wholly before `to`.
    private static func find(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        while i + needle.count <= to {
            if text[i] == needle[0], text[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
