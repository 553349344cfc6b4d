/// `navlog bisect A B --json` (schemas/bisect.schema.json).
extension DivergenceSearch {
    /// How a search was answered, beside its result.
    public struct Method: Sendable {
        /// `index` (two logs' block index), `checkpoints` (two stored
        /// sessions' chain hashes) or `fold`.
        public var name: String
        /// Blocks decompressed from each side, when counted.
        public var blocksDecompressed: (a: Int, b: Int)?
        /// Events settled without folding them.
        public var skippedEvents: Int

        public init(name: String, blocksDecompressed: (a: Int, b: Int)? = nil, skippedEvents: Int = 0) {
            self.name = name
            self.blocksDecompressed = blocksDecompressed
            self.skippedEvents = skippedEvents
        }
    }

    /// The answer: a position, or aligned by seq the seq of the first differing event.
    public func answer(alignedBySeq: Bool) -> Int? {
        guard diverged else { return nil }
        if alignedBySeq { return (eventA ?? eventB)!.seq }
        return position
    }

    /// The result as one JSON object; `inputs` are the paths as given,
    /// `align` is `position` or `seq`.
    public func jsonValue(inputs: (a: String, b: String), align: String, method: Method) -> JSONValue {
        func side(_ path: String, _ event: Event?, _ leading: [Event], _ state: NavigationState) -> JSONValue {
            .object(["input": .string(InputName.shown(path)), "session": .string(state.session),
                     "event": event.map(EventSummary.json) ?? .null, "leading": .array(leading.map(EventSummary.json))])
        }
        var object: [String: JSONValue] = [
            "diverged": .bool(diverged),
            "position": answer(alignedBySeq: align == "seq").map { .number(String($0)) } ?? .null,
            "align": .string(align),
            "method": .string(method.name),
            "skippedEvents": .number(String(method.skippedEvents)),
            "a": side(inputs.a, eventA, diverged ? leadingA : [], stateA),
            "b": side(inputs.b, eventB, diverged ? leadingB : [], stateB),
        ]
        if diverged { object["diff"] = StateDiff(stateA, stateB).jsonValue }
        if let blocks = method.blocksDecompressed {
            object["blocksDecompressed"] = .object(["a": .number(String(blocks.a)), "b": .number(String(blocks.b))])
        }
        return .object(object)
    }
}
