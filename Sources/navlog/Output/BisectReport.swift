// Output/: What commands print: tables, text, JSON, colour, the progress bar.

import NavLogCore

/// What `navlog bisect A B` prints: readable, or JSON (schemas/bisect.schema.json).
struct BisectReport {
    let search: DivergenceSearch
    let inputs: (a: String, b: String)
    let align: String
    let method: DivergenceSearch.Method

    /// The answer: a position, or with `--align seq` a seq.
    var answer: Int? { search.answer(alignedBySeq: align == "seq") }

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
            switch method.name {
            case "index": out += "\nfound by the block index (chain hashes, content checksums) and folding; \(method.skippedEvents) events skipped by the index"
            case "checkpoints": out += "\nfound by the checkpoints' chain hashes and folding; \(method.skippedEvents) events settled by the chains"
            default: out += "\nfound by folding both sessions"
            }
            if let blocksDecompressed = method.blocksDecompressed { out += "; blocks decompressed: \(blocksDecompressed.a) from A, \(blocksDecompressed.b) from B" }
            out += "\n"
        }
        return out
    }

    /// What stands for the event of a side that has none at the divergence.
    private static func noMoreEvents(_ side: String, _ state: NavigationState) -> String {
        state.seq == 0 ? "(\(side) has no events)" : "(\(side) has no more events: its last is seq \(state.seq))"
    }

    var jsonValue: JSONValue { search.jsonValue(inputs: inputs, align: align, method: method) }
}

/// What `navlog bisect LOG --until PATTERN` prints.
struct UntilReport {
    let input: String
    let search: ScreenSearch
    let blocksDecompressed: Int?

    func text(style: StateTree.Style, stats: Bool) -> String {
        let pattern = search.pattern.description, events = search.position
        var out: String
        if let found = search.found {
            out = "screen \(ReadableText.name(found.screen)) (matches \(Self.quoted(pattern))) after position \(found.position)\n"
            out += "     " + EventSummary.line(found.event, ended: "") + "\n"
            if !search.recent.isEmpty {
                out += "\nleading up to it:\n"
                for event in search.recent { out += "     " + EventSummary.line(event, ended: "") + "\n" }
            }
        } else {
            out = "no screen matches \(Self.quoted(pattern)) in \(events) events\n"
        }
        if stats, let blocksDecompressed { out += "\nfolded \(events) events; \(blocksDecompressed) blocks decompressed\n" }
        return out
    }

    /// The pattern between quotes, escaped as JSON: empty or spaced patterns stay visible.
    private static func quoted(_ pattern: String) -> String { JSONValue.string(pattern).canonicalText }

    var jsonValue: JSONValue { search.jsonValue(input: input, blocksDecompressed: blocksDecompressed) }
}
