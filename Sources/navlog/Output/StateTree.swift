#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// The readable form of a state: each scene with its visible screen, tabs
/// (the selected one marked), each stack as a breadcrumb, split columns and
/// modals.
struct StateTree {
    /// Whether to colour the output.
    struct Style {
        var color: Bool
        /// Colour as `--color` says (``Output/usesColor``).
        static var forStandardOutput: Style { Style(color: Output.usesColor) }
        static let plain = Style(color: false)
    }

    let state: NavigationState
    let style: Style


    var text: String {
        var out = ""
        let t = state.t.map { " · \($0.rfc3339)" } ?? ""
        out += style.paint("session \(ReadableText.name(state.session))", "1") + " · seq \(state.seq)\(t)\n"
        if !state.anomalies.isEmpty {
            let list = state.anomalies.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) ×\($0.value)" }
            out += "anomalies: " + style.paint(list.joined(separator: ", "), "33") + "\n"
        }
        if state.scenes.isEmpty { out += "(no scenes)\n" }
        for id in state.scenes.keys.sorted(by: utf8Less) {
            out += render(scene: id, state.scenes[id]!)
        }
        return out
    }

    private func render(scene id: String, _ scene: SceneState) -> String {
        var out = style.paint("scene \(ReadableText.name(id))", "1") + "  screen: " + style.paint(ReadableText.escaped(scene.screen), "36") + "\n"
        let tabs = scene.tabs
        if !tabs.order.isEmpty || tabs.selected != nil {
            var names: [String] = []
            for tab in tabs.order {
                var name = tab == tabs.selected ? style.paint("[\(ReadableText.name(tab))]", "32;1") : ReadableText.name(tab)
                if tabs.hidden.contains(tab) { name += " (hidden)" }
                names.append(name)
            }
            out += "  tabs       " + names.joined(separator: "  ") + "\n"
        }
        if let sections = tabs.sections {
            for section in sections {
                let members = section.tabs.isEmpty ? "(none)" : section.tabs.map(ReadableText.name).joined(separator: "  ")
                out += "  section    " + ReadableText.name(section.name) + ": " + members + "\n"
            }
        }
        if let searchTab = tabs.searchTab { out += "  search tab \(ReadableText.name(searchTab))\n" }
        if tabs.customized { out += "  customized by the user\n" }
        for stack in scene.stacks.keys.sorted(by: utf8Less) {
            let path = scene.stacks[stack]!
            let crumbs = path.isEmpty ? "(empty)" : path.map(ReadableText.screen).joined(separator: " › ")
            out += "  stack " + pad(ReadableText.name(stack), 8) + " " + crumbs + "\n"
        }
        for split in scene.splits.keys.sorted(by: utf8Less) {
            let s = scene.splits[split]!
            func column(_ values: [RouteValue]) -> String {
                values.isEmpty ? "–" : values.map(ReadableText.screen).joined(separator: ", ")
            }
            out += "  split " + pad(ReadableText.name(split), 8) + " sidebar: \(column(s.sidebar)) | content: \(column(s.content))"
                + " | detail: \(column(s.detail))  (\(s.visibility.rawValue))\n"
        }
        if !scene.modals.isEmpty {
            out += "  modals     " + scene.modals.map { "\(ReadableText.name($0.modal)) (\($0.style.rawValue))" }.joined(separator: " › ") + "\n"
        }
        if let sizeClass = scene.sizeClass { out += "  size class \(sizeClass.rawValue)\n" }
        if let presentation = tabs.presentation { out += "  tabs as    \(presentation.rawValue)\n" }
        return out
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
