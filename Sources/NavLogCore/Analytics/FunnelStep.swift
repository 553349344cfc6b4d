/// One step of a funnel (docs/analytics.md): a glob over screen names
/// (`Recipe/*`, `tab:search`, `*`), `mark:<glob>` over mark labels, or
/// `url:<glob>` over deep-link URLs.
///
/// ```swift
/// FunnelStep("Recipe/*").target        // .screen
/// FunnelStep("mark:purchase").target   // .mark, glob "purchase"
/// ```
public struct FunnelStep: Hashable, Sendable, CustomStringConvertible {
    /// What a step's glob is matched against.
    public enum Target: String, Hashable, Sendable {
        /// The visible screen of a screen view.
        case screen
        /// The label of a `mark` event.
        case mark
        /// The URL of a `url.open` event.
        case url
    }

    /// The pattern as written (`mark:purchase`).
    public let description: String
    /// What the glob matches.
    public let target: Target
    /// The glob, without the `mark:` / `url:` prefix.
    public let glob: GlobPattern

    public init(_ pattern: String) {
        description = pattern
        if pattern.hasPrefix("mark:") {
            target = .mark
            glob = GlobPattern(String(pattern.dropFirst(5)))
        } else if pattern.hasPrefix("url:") {
            target = .url
            glob = GlobPattern(String(pattern.dropFirst(4)))
        } else {
            target = .screen
            glob = GlobPattern(pattern)
        }
    }

    /// Whether the occurrence matches this step.
    @inlinable
    public func matches(_ occurrence: FunnelOccurrence) -> Bool {
        occurrence.target == target && glob.matches(occurrence.name)
    }
}
