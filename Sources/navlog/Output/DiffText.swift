import NavLogCore

/// The readable form of a ``StateDiff``: per scene, one line per thing that
/// differs; what only A has in red (`-`), what only B has in green (`+`).
struct DiffText {
    let diff: StateDiff
    let style: StateTree.Style

    private func minus(_ text: String) -> String { style.paint("-" + text, "31") }
    private func plus(_ text: String) -> String { style.paint("+" + text, "32") }

    var text: String {
        if diff.isEmpty { return "no difference\n" }
        var out = ""
        for scene in diff.scenes { out += render(scene) }
        return out
    }

    private func render(_ s: SceneDiff) -> String {
        let where_ = s.presence == .both ? "" : s.presence == .onlyA ? "  (only in A)" : "  (only in B)"
        var out = style.paint("scene \(ReadableText.name(s.scene))", "1") + where_ + "\n"
        func row(_ label: String, _ body: String) {
            out += "  " + label.padding(width: 14) + " " + body + "\n"
        }
        func change(_ a: String, _ b: String) -> String { minus(a) + "  " + plus(b) }
        if let screen = s.screen { row("screen", change(screen.a.map(ReadableText.name) ?? "(none)", screen.b.map(ReadableText.name) ?? "(none)")) }
        if let tab = s.selectedTab { row("selected tab", change(tab.a.map(ReadableText.name) ?? "(none)", tab.b.map(ReadableText.name) ?? "(none)")) }
        if let order = s.tabOrder { row("tab order", tails(names(order.common), names(order.a), names(order.b), separator: "  ")) }
        if let hidden = s.hiddenTabs { row("hidden tabs", change(list(names(hidden.a)), list(names(hidden.b)))) }
        if let sections = s.tabSections { row("tab sections", change(Self.sections(sections.a), Self.sections(sections.b))) }
        if let search = s.searchTab { row("search tab", change(search.a.map(ReadableText.name) ?? "(none)", search.b.map(ReadableText.name) ?? "(none)")) }
        if let p = s.tabPresentation { row("tabs as", change(p.a?.rawValue ?? "(none)", p.b?.rawValue ?? "(none)")) }
        if let c = s.customized { row("customized", change(c.a ? "yes" : "no", c.b ? "yes" : "no")) }
        for stack in s.stacks {
            let v = stack.values
            var body = tails(v.common.map(ReadableText.screen), shown(v.a, beside: v.b), shown(v.b, beside: v.a), separator: " › ")
            if stack.presence != .both { body += stack.presence == .onlyA ? "  (stack only in A)" : "  (stack only in B)" }
            row("stack " + ReadableText.name(stack.stack), body)
        }
        for split in s.splits {
            var parts: [String] = []
            for column in split.columns {
                let selection = column.selection
                parts.append("\(column.column.rawValue): " + change(list(shown(selection.a, beside: selection.b)),
                                                                   list(shown(selection.b, beside: selection.a))))
            }
            if let v = split.visibility { parts.append("visibility: " + change(v.a.rawValue, v.b.rawValue)) }
            if split.presence != .both { parts.append(split.presence == .onlyA ? "(split only in A)" : "(split only in B)") }
            row("split " + ReadableText.name(split.split), parts.joined(separator: "; "))
        }
        if let m = s.modals {
            func name(_ p: ModalPresentation) -> String { "\(ReadableText.name(p.modal)) (\(p.style.rawValue))" }
            row("modals", tails(m.common.map(name), m.a.map(name), m.b.map(name), separator: " › "))
        }
        if let size = s.sizeClass { row("size class", change(size.a?.rawValue ?? "(none)", size.b?.rawValue ?? "(none)")) }
        return out
    }

    /// `Collections (favorites, recent), Browse (none)`, or `(none)`.
    private static func sections(_ sections: [TabSection]?) -> String {
        guard let sections, !sections.isEmpty else { return "(none)" }
        return sections.map { section in
            ReadableText.name(section.name) + " ("
                + (section.tabs.isEmpty ? "none" : section.tabs.map(ReadableText.name).joined(separator: ", ")) + ")"
        }.joined(separator: ", ")
    }

    private func list(_ items: [String]) -> String { items.isEmpty ? "(none)" : items.joined(separator: ", ") }

    /// Route values of one side as shown: each screen name, and its `data`
    /// as well when the other side has a value of the same screen name —
    /// the two then differ in their data alone, which the name cannot show.
    private func shown(_ values: [RouteValue], beside other: [RouteValue]) -> [String] {
        let otherNames = Set(other.map(\.screenName))
        return values.map { value in
            let name = ReadableText.screen(value)
            guard otherNames.contains(value.screenName) else { return name }
            return name + " " + (value.data.map { ReadableText.escaped($0.canonicalText) } ?? "(no data)")
        }
    }

    /// Ids as shown (``ReadableText/name(_:)``).
    private func names(_ ids: [String]) -> [String] { ids.map(ReadableText.name) }

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
