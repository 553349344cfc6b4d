import NavLogCore

/// One line of `navlog replay`: `seq  time  scene  type  — effects`, the
/// columns padded to the widest value of the lines shown.
///
/// ```
///  5  2026-11-20T10:00:05.120Z  main  stack.push  — pushed Recipe/apple-pie on home; screen now Recipe/apple-pie
/// ```
struct ReplayLine {
    /// Column widths, in characters.
    struct Widths {
        var seq = 1
        var scene = 0
        var type = 0

        /// Wide enough for every one of `events`.
        init<Events: Sequence<Event>>(fitting events: Events) {
            for event in events { widen(for: event) }
        }

        mutating func widen(for event: Event) {
            seq = max(seq, String(event.seq).count)
            scene = max(scene, ReplayLine.scene(event).count)
            type = max(type, ReadableText.escaped(event.type).count)
        }
    }

    var widths: Widths
    var style: StateTree.Style


    /// The line for a step, without a line break.
    func text(_ step: ReplayStep) -> String {
        let event = step.event
        let seq = String(event.seq)
        var out = String(repeating: " ", count: max(0, widths.seq - seq.count)) + style.paint(seq, "2")
        out += "  " + style.paint(event.t.rfc3339, "2")
        out += "  " + pad(Self.scene(event), widths.scene)
        out += "  " + style.paint(pad(ReadableText.escaped(event.type), widths.type), "1")
        out += "  — " + effects(step.effects)
        if let cause = event.cause { out += "  " + style.paint("(cause \(cause))", "2") }
        return out
    }

    /// The effects joined with `; `, or `no change`.
    func effects(_ effects: [EventEffect]) -> String {
        if effects.isEmpty { return style.paint("no change", "2") }
        return effects.map { effect in
            switch effect {
            case .screen(let screen): "screen now " + style.paint(ReadableText.name(screen), "36")
            case .anomaly: style.paint(effect.description, "33")
            default: effect.description
            }
        }.joined(separator: "; ")
    }

    /// The scene column: the scene id, `""` when it is empty (``ReadableText/name(_:)``).
    static func scene(_ event: Event) -> String { ReadableText.name(event.sceneID) }

    private func pad(_ s: String, _ width: Int) -> String {
        let n = s.count
        return n >= width ? s : s + String(repeating: " ", count: width - n)
    }
}
