// Collect/: The collector's writer (`navlog serve`): uploads stored through the store's writer.

import NavLogCore

/// What one upload came to, sent once it is durable:
/// `{"duplicates":n,"rejected":[{"line":i,"reason":"…"}],"stored":n}`
/// (schemas/openapi.yaml, `UploadAnswer`).
public struct CollectorAnswer: Hashable, Sendable {
    /// A line not stored, and why.
    public struct Rejected: Hashable, Sendable {
        /// 1-based line of the body.
        public var line: Int
        public var reason: String
    }

    /// Events stored.
    public var stored: Int
    /// Events the store already held (a retry).
    public var duplicates: Int
    /// Lines not stored, in body order.
    public var rejected: [Rejected]

    /// The answer's JSON, keys sorted, one line without its `\n`.
    public var json: String {
        let rejections = rejected.map { JSONValue.object(["line": .number(String($0.line)), "reason": .string($0.reason)]) }
        return JSONValue.object([
            "stored": .number(String(stored)),
            "duplicates": .number(String(duplicates)),
            "rejected": .array(rejections),
        ]).canonicalText
    }
}
