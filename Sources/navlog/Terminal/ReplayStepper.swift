import NavLogCore

/// `navlog replay --interactive`: steps through a session on a terminal,
/// backwards as fast as forwards (every state comes from a nearby
/// checkpoint of the ``StateTimeline``).
///
/// The screen, redrawn after every key:
/// ```
/// navlog replay · session demo-1 · event 5 of 23
///
///    4  2026-11-20T10:00:02.310Z  main  stack.push  — pushed Category/desserts on home; …
/// ▶  5  2026-11-20T10:00:05.120Z  main  stack.push  — pushed Recipe/apple-pie on home; …
///    6  …
///
/// seq 5 · stack.push · scene main · 2026-11-20T10:00:05.120Z
///     pushed Recipe/apple-pie on home
///     screen now Recipe/apple-pie
/// screens  main: Recipe/apple-pie
/// (message)
/// n/→ next · p/← previous · g seq · t time · / search · s state · q quit
/// ```
/// With `s`, the full state (as `navlog state` prints it) takes the place
/// of the list of events until `s` is pressed again.
struct ReplayStepper<Timeline: StateTimeline> {
    /// What is being typed after `g`, `t` or `/`.
    enum Prompt {
        case seq, time, search

        var label: String {
            switch self {
            case .seq: "seq: "
            case .time: "time (RFC 3339): "
            case .search: "search (glob, * wildcard): "
            }
        }
    }

    let timeline: Timeline
    /// The current position: the state after this many events.
    private(set) var position: Int
    private var prompt: Prompt?
    private var typed: [UInt8] = []
    private var showState = false
    private var message = ""
    private var lastSearch: GlobPattern?
    private let format: ReplayLine

    /// Events a PgUp or PgDn moves by.
    static var page: Int { 20 }

    static var help: String { "n/→ next · p/← previous · g seq · t time · / search · s state · q quit" }

    init(timeline: Timeline, start: Int) {
        self.timeline = timeline
        self.position = max(0, min(start, timeline.count))
        let events = (0..<timeline.count).lazy.map { timeline.event(at: $0 + 1) }
        self.format = ReplayLine(widths: ReplayLine.Widths(fitting: events), style: .forStandardOutput)
    }

    /// Runs until `q`, Ctrl-C, Ctrl-D or the end of input; then the terminal
    /// is restored and the line of the event it stopped at is printed.
    /// Ctrl-Z suspends it (the terminal put back until `fg`).
    mutating func run() throws {
        let terminal: RawTerminal
        do { terminal = try RawTerminal() } catch { throw CLIFailure.trouble("replay: \(error.description)") }
        defer { terminal.restore() }
        while true {
            let size = terminal.size
            terminal.draw(frame(rows: size.rows))
            guard let key = terminal.nextKey() else { break }
            if key == .suspend {
                terminal.suspend()   // back here once continued: the loop draws again
                continue
            }
            guard handle(key) else { break }
        }
        terminal.restore()
        if position > 0 { Output.line(format.text(timeline.step(at: position))) }
    }

    // MARK: Keys

    /// Acts on a key; `false` to quit.
    private mutating func handle(_ key: TerminalKey) -> Bool {
        if let prompt { return typing(key, for: prompt) }
        message = ""
        switch key {
        case .byte(UInt8(ascii: "q")), .interrupt, .endOfInput:
            return false
        case .byte(UInt8(ascii: "n")), .byte(UInt8(ascii: " ")), .right, .down, .enter:
            if position < timeline.count { position += 1 } else { message = "at the last event" }
        case .byte(UInt8(ascii: "p")), .left, .up, .backspace:
            if position > 0 { position -= 1 } else { message = "at the start" }
        case .pageDown:
            if position < timeline.count { position = min(position + Self.page, timeline.count) } else { message = "at the last event" }
        case .pageUp:
            if position > 0 { position = max(position - Self.page, 0) } else { message = "at the start" }
        case .home:
            position = 0
        case .end:
            position = timeline.count
        case .byte(UInt8(ascii: "g")):
            prompt = .seq
        case .byte(UInt8(ascii: "t")):
            prompt = .time
        case .byte(UInt8(ascii: "/")):
            prompt = .search
        case .byte(UInt8(ascii: "s")):
            showState.toggle()
        case .resize:
            break
        default:
            message = "unknown key; " + Self.help
        }
        return true
    }

    /// A key while a prompt is open: edit, submit with Enter, cancel with Escape.
    private mutating func typing(_ key: TerminalKey, for prompt: Prompt) -> Bool {
        switch key {
        case .enter:
            let text = String(decoding: typed, as: UTF8.self)
            self.prompt = nil
            typed = []
            submit(text, for: prompt)
        case .escape, .interrupt:
            self.prompt = nil
            typed = []
        case .endOfInput:
            return false
        case .backspace:
            // Remove one character: its last byte and any UTF-8 continuation bytes before it.
            while let last = typed.popLast(), last & 0xC0 == 0x80 {}
        case .clearLine:
            typed = []
        case .byte(let byte):
            if typed.count < 1024 { typed.append(byte) }
        default:
            break
        }
        return true
    }

    private mutating func submit(_ text: String, for prompt: Prompt) {
        let text = text.trimmingSpaces
        switch prompt {
        case .seq:
            guard let n = Int(text), n >= 0 else {
                message = "not a seq: \(text)"
                return
            }
            position = timeline.position(ofSeq: n)
            if position == 0 {
                message = n == 0 ? "" : "no event at or before seq \(n); at the start"
            } else if timeline.event(at: position).seq != n {
                message = "no event with seq \(n); at seq \(timeline.event(at: position).seq), the last before it"
            }
        case .time:
            guard let instant = Timestamp(rfc3339: text) else {
                message = "not an RFC 3339 time: \(text)"
                return
            }
            position = timeline.position(atOrBefore: instant)
            if position == 0 { message = "no event at or before \(instant.rfc3339); at the start" }
        case .search:
            guard let pattern = text.isEmpty ? lastSearch : GlobPattern(text) else {
                message = "no search to repeat"
                return
            }
            lastSearch = pattern
            if let found = timeline.position(after: position, matching: pattern) {
                position = found
                message = "found \(pattern)"
            } else {
                message = "no later event matches \(pattern)"
            }
        }
    }

    // MARK: Drawing


    /// The whole screen for a terminal of `rows` rows.
    func frame(rows: Int) -> String {
        let count = timeline.count
        let step = position > 0 ? timeline.step(at: position) : nil
        var header = format.style.paint("navlog replay", "1") + " · session \(ReadableText.name(timeline.session)) · "
        header += count == 0 ? "no events" : position == 0 ? "start (no event applied), \(count) events" : "event \(position) of \(count)"

        var detail: [String] = []
        if let step {
            let event = step.event
            detail.append(format.style.paint("seq \(event.seq) · \(ReadableText.escaped(event.type)) · scene \(ReadableText.name(event.sceneID)) · \(event.t.rfc3339)", "1")
                          + (event.cause.map { " · cause \($0)" } ?? ""))
            let effects = step.effects.isEmpty ? [format.effects([])] : step.effects.map { format.effects([$0]) }
            detail += effects.prefix(6).map { "    " + $0 }
            if effects.count > 6 { detail.append("    … \(effects.count - 6) more") }
        }
        let state = step?.state ?? timeline.state(at: position)
        let screens = state.scenes.keys.sorted(by: utf8Less).map { "\(ReadableText.name($0)): \(format.style.paint(ReadableText.escaped(state.scenes[$0]!.screen), "36"))" }
        detail.append("screens  " + (screens.isEmpty ? "(no scenes)" : screens.joined(separator: " · ")))

        let bottom: String
        if let prompt {
            bottom = prompt.label + String(decoding: typed, as: UTF8.self)
        } else {
            bottom = format.style.paint(Self.help, "2")
        }
        let room = max(3, rows - 5 - detail.count)
        let body = showState ? stateLines(state, room: room) : eventLines(room: room)

        var lines = [header, ""] + body + [""] + detail + [message.isEmpty ? "" : format.style.paint(message, "33"), bottom]
        if lines.count > rows { lines.removeFirst(lines.count - rows) }
        // Home, each line cleared to its end, the rest of the screen cleared;
        // the cursor stays after the prompt, shown only while typing.
        return "\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J"
            + (prompt == nil ? "\u{1B}[?25l" : "\u{1B}[?25h")
    }

    /// The events around the current one, at most `room` lines.
    private func eventLines(room: Int) -> [String] {
        let count = timeline.count
        let size = min(count + 1, room)
        let first = max(0, min(position - size / 2, count + 1 - size))
        let last = first + size - 1
        var lines: [String] = []
        if first == 0 {
            lines.append((position == 0 ? format.style.paint("▶ ", "36;1") : "  ") + format.style.paint("(start: no event applied)", "2"))
        }
        if last >= 1 {
            for step in timeline.steps(max(first, 1)...last) {
                lines.append((step.position == position ? format.style.paint("▶ ", "36;1") : "  ") + format.text(step))
            }
        }
        return lines
    }

    /// The state tree, cut to `room` lines.
    private func stateLines(_ state: NavigationState, room: Int) -> [String] {
        var lines = StateTree(state: state, style: format.style).text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        if lines.count > room {
            let more = lines.count - room + 1
            lines = Array(lines.prefix(room - 1)) + [format.style.paint("… \(more) more lines", "2")]
        }
        return lines
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
