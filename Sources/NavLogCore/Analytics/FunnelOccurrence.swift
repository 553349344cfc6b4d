/// Something in a session a funnel step can match: a screen view, a mark or
/// a deep link, at the event that produced it.
public struct FunnelOccurrence: Hashable, Sendable {
    /// The seq of the event.
    public var seq: Int
    /// The time of the event.
    public var t: Timestamp
    /// A screen view, a mark or a deep link.
    public var target: FunnelStep.Target
    /// The screen name, the mark's label or the URL.
    public var name: String
    /// The scene of the event.
    public var scene: String

    public init(seq: Int, t: Timestamp, target: FunnelStep.Target, name: String, scene: String = "main") {
        self.seq = seq
        self.t = t
        self.target = target
        self.name = name
        self.scene = scene
    }
}
