import NavLogCore

/// The readable form of a ``StateDiff``: per scene, one line per thing that
/// differs; what only A has in red (`-`), what only B has in green (`+`).
struct DiffText {
    let diff: StateDiff
    let style: StateTree.Style

    private func paint(_ text: String, _ code: String) -> String {
        style.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    private func minus(_ text: String) -> String { paint("-" + text, "31") }
    private func plus(_ text: String) -> String { paint("+" + text, "32") }

    var text: String {
        if diff.isEmpty { return "no difference\n" }
        var out = ""
        for scene in diff.scenes { out += render(scene) }
        return out
    }

    private func render(_ s: SceneDiff) -> String {
        let where_ = s.presence == .both ? "" : s.presence == .onlyA ? "  (only in A)" : "  (only in B)"
        var out = paint("scene \(s.scene)", "1") + where_ + "\n"
        func row(_ label: String, _ body: String) {
            out += "  " + label.padding(width: 14) + " " + body + "\n"
        }
        func change(_ a: String, _ b: String) -> String { minus(a) + "  " + plus(b) }
        if let screen = s.screen { row("screen", change(screen.a ?? "(none)", screen.b ?? "(none)")) }
        if let tab = s.selectedTab { row("selected tab", change(tab.a ?? "(none)", tab.b ?? "(none)")) }
        if let order = s.tabOrder { row("tab order", tails(order.common, order.a, order.b, separator: "  ")) }
        if let hidden = s.hiddenTabs { row("hidden tabs", change(list(hidden.a), list(hidden.b))) }
        for stack in s.stacks {
            let v = stack.values
            var body = tails(v.common.map(\.screenName), v.a.map(\.screenName), v.b.map(\.screenName), separator: " › ")
            if stack.presence != .both { body += stack.presence == .onlyA ? "  (stack only in A)" : "  (stack only in B)" }
            row("stack " + stack.stack, body)
        }
        for split in s.splits {
            var parts: [String] = []
            for column in split.columns {
                parts.append("\(column.column.rawValue): " + change(list(column.selection.a.map(\.screenName)),
                                                                   list(column.selection.b.map(\.screenName))))
            }
            if let v = split.visibility { parts.append("visibility: " + change(v.a.rawValue, v.b.rawValue)) }
            if split.presence != .both { parts.append(split.presence == .onlyA ? "(split only in A)" : "(split only in B)") }
            row("split " + split.split, parts.joined(separator: "; "))
        }
        if let m = s.modals {
            func name(_ p: ModalPresentation) -> String { "\(p.modal) (\(p.style.rawValue))" }
            row("modals", tails(m.common.map(name), m.a.map(name), m.b.map(name), separator: " › "))
        }
        if let size = s.sizeClass { row("size class", change(size.a?.rawValue ?? "(none)", size.b?.rawValue ?? "(none)")) }
        return out
    }

    private func list(_ items: [String]) -> String { items.isEmpty ? "(none)" : items.joined(separator: ", ") }

    /// `common › … › -a1 › -a2  +b1`: the shared prefix, then A's tail and
    /// B's (an empty tail is left out; both empty: `(empty)`).
    private func tails(_ common: [String], _ a: [String], _ b: [String], separator: String) -> String {
        var out = common.joined(separator: separator)
        if a.isEmpty && b.isEmpty { return out.isEmpty ? "(empty)" : out }
        if !a.isEmpty { out += (out.isEmpty ? "" : separator) + a.map(minus).joined(separator: separator) }
        if !b.isEmpty { out += (out.isEmpty ? "" : a.isEmpty ? separator : "  ") + b.map(plus).joined(separator: separator) }
        return out
    }
}

extension String {
    func padding(width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
