import NavLogCore

/// What `navlog bisect A B` prints: readable, or JSON (schemas/bisect.schema.json).
struct BisectReport {
    let search: DivergenceSearch
    let inputs: (a: String, b: String)
    let align: String
    let method: String
    let blocksDecompressed: (a: Int, b: Int)?
    let skippedEvents: Int

    /// The answer: a position, or with `--align seq` a seq.
    var answer: Int? {
        guard search.diverged else { return nil }
        if align == "seq" { return (search.eventA ?? search.eventB)!.seq }
        return search.position
    }

    func text(style: StateTree.Style, stats: Bool) -> String {
        var out = ""
        if let answer {
            out += style.paint("diverged at \(align == "seq" ? "seq" : "position") \(answer)", "1") + "\n"
            out += "  A  " + EventSummary.line(search.eventA, ended: Self.noMoreEvents("A", search.stateA)) + "\n"
            out += "  B  " + EventSummary.line(search.eventB, ended: Self.noMoreEvents("B", search.stateB)) + "\n"
            for (name, leading) in [("A", search.leadingA), ("B", search.leadingB)] where !leading.isEmpty {
                out += "\nleading up to it in \(name):\n"
                for event in leading { out += "     " + EventSummary.line(event, ended: "") + "\n" }
            }
            out += "\nstate difference after it (-A +B):\n"
            out += DiffText(diff: StateDiff(search.stateA, search.stateB), style: style).text
        } else {
            out += "no divergence: the states agree at every one of the \(search.position) "
                + (align == "seq" ? "seqs" : "positions") + "\n"
        }
        if stats {
            switch method {
            case "index": out += "\nfound by the block index (chain hashes, content checksums) and folding; \(skippedEvents) events skipped by the index"
            case "checkpoints": out += "\nfound by the checkpoints' chain hashes and folding; \(skippedEvents) events settled by the chains"
            default: out += "\nfound by folding both sessions"
            }
            if let blocksDecompressed { out += "; blocks decompressed: \(blocksDecompressed.a) from A, \(blocksDecompressed.b) from B" }
            out += "\n"
        }
        return out
    }

    /// What stands for the event of a side that has none at the divergence.
    private static func noMoreEvents(_ side: String, _ state: NavigationState) -> String {
        state.seq == 0 ? "(\(side) has no events)" : "(\(side) has no more events: its last is seq \(state.seq))"
    }

    var jsonValue: JSONValue {
        func side(_ path: String, _ event: Event?, _ leading: [Event], _ state: NavigationState) -> JSONValue {
            .object(["input": .string(SessionInput.displayName(path)), "session": .string(state.session),
                     "event": event.map(EventSummary.json) ?? .null, "leading": .array(leading.map(EventSummary.json))])
        }
        var object: [String: JSONValue] = [
            "diverged": .bool(search.diverged),
            "position": answer.map { .number(String($0)) } ?? .null,
            "align": .string(align),
            "method": .string(method),
            "skippedEvents": .number(String(skippedEvents)),
            "a": side(inputs.a, search.eventA, search.diverged ? search.leadingA : [], search.stateA),
            "b": side(inputs.b, search.eventB, search.diverged ? search.leadingB : [], search.stateB),
        ]
        if search.diverged { object["diff"] = StateDiff(search.stateA, search.stateB).jsonValue }
        if let blocksDecompressed {
            object["blocksDecompressed"] = .object(["a": .number(String(blocksDecompressed.a)), "b": .number(String(blocksDecompressed.b))])
        }
        return .object(object)
    }
}

/// What `navlog bisect LOG --until PATTERN` prints.
struct UntilReport {
    let input: String
    let pattern: String
    let found: (position: Int, event: Event, screen: String)?
    let leading: [Event]
    let events: Int
    let blocksDecompressed: Int?

    func text(style: StateTree.Style, stats: Bool) -> String {
        var out: String
        if let found {
            out = "screen \(ReadableText.name(found.screen)) (matches \(Self.quoted(pattern))) after position \(found.position)\n"
            out += "     " + EventSummary.line(found.event, ended: "") + "\n"
            if !leading.isEmpty {
                out += "\nleading up to it:\n"
                for event in leading { out += "     " + EventSummary.line(event, ended: "") + "\n" }
            }
        } else {
            out = "no screen matches \(Self.quoted(pattern)) in \(events) events\n"
        }
        if stats, let blocksDecompressed { out += "\nfolded \(events) events; \(blocksDecompressed) blocks decompressed\n" }
        return out
    }

    /// The pattern between quotes, escaped as JSON: empty or spaced patterns stay visible.
    private static func quoted(_ pattern: String) -> String { JSONValue.string(pattern).canonicalText }

    var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "found": .bool(found != nil), "pattern": .string(pattern), "input": .string(SessionInput.displayName(input)),
            "position": found.map { .number(String($0.position)) } ?? .null,
            "screen": found.map { .string($0.screen) } ?? .null,
            "event": found.map { EventSummary.json($0.event) } ?? .null,
            "leading": .array(found == nil ? [] : leading.map(EventSummary.json)),
        ]
        if let blocksDecompressed { object["blocksDecompressed"] = .number(String(blocksDecompressed)) }
        return .object(object)
    }
}

/// An event on one line (`seq N  time  scene  type  {fields}`) or as its canonical JSON object.
enum EventSummary {
    static func line(_ event: Event?, ended: String) -> String {
        guard let event else { return ended }
        var writer = CanonicalWriter()
        writer.write(event)
        return "seq \(event.seq)  \(event.t.rfc3339)  \(ReplayLine.scene(event))  \(ReadableText.escaped(event.type))  \(ReadableText.escaped(writer.string))"
    }

    static func json(_ event: Event) -> JSONValue {
        var writer = CanonicalWriter()
        writer.write(event)
        return (try? JSONValue.parse(writer.string)) ?? .null
    }
}
