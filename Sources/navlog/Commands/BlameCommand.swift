import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog blame LOG [--at SPEC] [--json]`: who put each screen there.
struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Show which event put each stack value, split selection and modal in a state.",
        discussion: """
            For the state at SPEC (N, an RFC 3339 instant, or end; the default), every value on \
            every stack, every split column's selection and every presented modal, with the event \
            that put it there (seq, time, type, cause) and the url.open its cause chain leads to; \
            in a scene the user customized (tabs.customize), every hidden tab with who hid it: \
            the user's customization, the app (tab.visibility) or state restoration. \
            A push, present or selection is its own origin; a pop or dismiss keeps the origins of \
            what stays; stack.set and state.restore are the origin of all they set. The session is \
            folded from its start.

            Examples:
              navlog blame session.navlog
              navlog blame session.navlog --at 42 --json
              navlog blame store/ --session s-000042 --at 20
            """
    )

    @OptionGroup var point: SessionPointOptions

    @Flag(name: .long, help: "Print JSON instead of a listing.")
    var json = false

    @OptionGroup var colorOptions: ColorOptions

    func run() throws {
        let spec = try point.spec()
        let opened = try OneSession.opened(point.log, session: point.session)
        let blame = try reading { () throws(OneSessionError) in try opened.blame(at: spec) }
        if json {
            Output.line(blame.jsonValue(at: spec).canonicalText)
        } else {
            Output.write(BlameReport.text(blame, style: .forStandardOutput))
        }
    }
}

/// The listing and the JSON of a ``StateBlame``.
enum BlameReport {
    static func text(_ blame: StateBlame, style: StateTree.Style) -> String {
        func by(_ origin: StateBlame.Origin?) -> String {
            guard let origin else { return style.paint("(unknown)", "2") }
            let e = origin.event
            var out = style.paint("seq \(e.seq)", "33") + "  " + style.paint(e.t.rfc3339, "2") + "  " + ReadableText.escaped(e.type)
            if let cause = e.cause { out += "  (cause \(cause))" }
            if let url = origin.url, case .urlOpen(let link) = url.kind {
                out += "  ← " + style.paint("url.open \(ReadableText.name(link))", "36") + " (seq \(url.seq))"
            }
            return out
        }
        let state = blame.state
        let t = state.t.map { " · \($0.rfc3339)" } ?? ""
        var out = style.paint("session \(ReadableText.name(state.session))", "1") + " · seq \(state.seq)\(t)\n"
        if state.scenes.isEmpty { out += "(no scenes)\n" }
        for id in state.scenes.keys.sorted(by: utf8Less) {
            let scene = state.scenes[id]!, origins = blame.scenes[id] ?? StateBlame.SceneOrigins()
            out += style.paint("scene \(ReadableText.name(id))", "1") + "  screen: " + style.paint(ReadableText.escaped(scene.screen), "36") + "\n"
            for stack in scene.stacks.keys.sorted(by: utf8Less) {
                let values = scene.stacks[stack]!
                out += "  stack \(ReadableText.name(stack))" + (values.isEmpty ? " (empty)" : "") + "\n"
                let o = origins.stacks[stack] ?? []
                let width = values.map { ReadableText.screen($0).count }.max() ?? 0
                for (i, value) in values.enumerated() {
                    out += "    \(i + 1)  " + ReadableText.screen(value).padding(width: width) + "  " + by(i < o.count ? o[i] : nil) + "\n"
                }
            }
            for split in scene.splits.keys.sorted(by: utf8Less) {
                for column in SplitColumn.allCases where !scene.splits[split]![column].isEmpty {
                    let names = scene.splits[split]![column].map(ReadableText.screen).joined(separator: ", ")
                    out += "  split \(ReadableText.name(split)) \(column.rawValue)  \(names)  " + by(origins.splits[split]?[column]) + "\n"
                }
            }
            for (i, modal) in scene.modals.enumerated() {
                out += "  modal \(i + 1)  \(ReadableText.name(modal.modal)) (\(modal.style.rawValue))  " + by(i < origins.modals.count ? origins.modals[i] : nil) + "\n"
            }
            for tab in StateBlame.blamedHiddenTabs(scene) {
                let origin = origins.hiddenTabs[tab]
                out += "  tab \(ReadableText.name(tab))  hidden by \(StateBlame.hider(origin)) at " + by(origin) + "\n"
            }
        }
        return out
    }
}
