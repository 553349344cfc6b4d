/// The keys of `--keys FILE`: one a line, `write KEY` or `read KEY`; blank
/// lines and lines starting with `#` are skipped. A write key may also read.
///
/// ```swift
/// let keys = try KeyRing(text: "write s3cret\nread peek\n")
/// keys.grant(for: "s3cret")   // .write
/// ```
public struct KeyRing: Sendable, Hashable {
    /// What a key lets a client do.
    public enum Grant: Int, Sendable, Hashable, Comparable {
        case read = 1
        case write = 2

        public static func < (a: Grant, b: Grant) -> Bool { a.rawValue < b.rawValue }
    }

    /// Why a keys file is not acceptable.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based line of the file.
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    private var grants: [String: Grant] = [:]

    /// Whether there is no key at all.
    public var isEmpty: Bool { grants.isEmpty }

    /// Reads the keys from the text of a keys file.
    ///
    /// - Throws: ``Failure`` naming the first line that is not `write KEY` or `read KEY`.
    public init(text: String) throws(Failure) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2 else {
                throw Failure(line: index + 1, reason: "expected `write KEY` or `read KEY`")
            }
            let grant: Grant
            switch parts[0] {
            case "write": grant = .write
            case "read": grant = .read
            default: throw Failure(line: index + 1, reason: "\"\(parts[0])\" is neither write nor read")
            }
            let key = String(parts[1])
            grants[key] = max(grants[key] ?? grant, grant)
        }
    }

    /// What `key` grants, or `nil` for a key not in the file.
    public func grant(for key: Substring) -> Grant? { grants[String(key)] }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and `\r`.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
