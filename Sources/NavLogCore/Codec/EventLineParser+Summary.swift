extension EventLineParser {
    /// The summary of `line` when it is a canonical line with a `seq` that
    /// the fast path reads; `nil` otherwise (``parse(_:)`` then reads it, or says why not). A summary
    /// costs less than the event: nothing of the line is copied into a
    /// `String`. Its routes are valid until the next line is summarized.
    @inline(__always)
    package mutating func summarize(_ line: UnsafeRawBufferPointer) -> CanonicalLineSummary? {
        guard storage.usesFastPath, line.count <= EventParser.maxLineBytes else { return nil }
        return CanonicalLineParser.summarize(line, storage: storage)
    }

    /// The summary of `line` as ``summarize(_:)`` makes it, or of a
    /// `state.restore` line whose state the fast path checks (it means the
    /// seq, `t` and session ``parse(_:)`` reads): for a reader that needs no
    /// more of the line than those and that it is valid — the segment
    /// writer. Such a line is not canonical: its summary is never folded.
    @inline(__always)
    package mutating func key(_ line: UnsafeRawBufferPointer) -> CanonicalLineSummary? {
        guard storage.usesFastPath, line.count <= EventParser.maxLineBytes else { return nil }
        return CanonicalLineParser.summarize(line, storage: storage, checksRestoredState: true)
    }

    /// Folds the event that `summary`, of `line` (the line last summarized),
    /// stands for into `projector`'s state: the same change as
    /// `projector.apply(event)` with the event ``parse(_:)`` reads from
    /// `line`, made by the same rules (``NavigationProjector/applyEffect(_:scene:)``).
    @inline(__always)
    package func fold(_ summary: CanonicalLineSummary, line: UnsafeRawBufferPointer,
                      into projector: inout NavigationProjector) {
        let names = storage.names
        @inline(__always) func string(_ range: Range<Int>) -> String {
            names.string(UnsafeRawBufferPointer(rebasing: line[range]))
        }
        @inline(__always) func route(_ index: Int) -> RouteValue {
            let r = storage.routeRanges[index]
            return RouteValue(type: string(Int(r.typeStart)..<Int(r.typeEnd)),
                              id: r.idStart == r.idEnd ? nil : string(Int(r.idStart)..<Int(r.idEnd)),
                              data: r.data < 0 ? nil : storage.routeData[Int(r.data)])
        }
        @inline(__always) func routes() -> [RouteValue] { summary.routes.map(route) }

        let wasEnded = projector.advance(seq: summary.seq, t: summary.t)
        let scene = summary.scene.map(string) ?? "main"
        switch summary.tag {
        case .scene_close:
            projector.closeScene(scene)
        case .session_end:
            projector.endSession(in: scene)
        case .scene_open, .session_start, .url_open, .mark, .other:
            projector.touchScene(scene)
        case .stack_push:
            let value = route(summary.routes.lowerBound)
            _ = projector.changeScene(scene) { $0.push(value, onto: string(summary.name!), cache: &$1); return nil }
        case .stack_pop:
            _ = projector.changeScene(scene) { $0.pop(summary.count, from: string(summary.name!), cache: &$1) }
        case .stack_popToRoot:
            _ = projector.changeScene(scene) { $0.popToRoot(string(summary.name!), cache: &$1); return nil }
        case .stack_set:
            let path = routes()
            _ = projector.changeScene(scene) { $0.setPath(path, of: string(summary.name!), cache: &$1); return nil }
        case .tab_select:
            _ = projector.changeScene(scene) { scene, _ in scene.tabs.select(string(summary.name!)) }
        case .tab_visibility:
            _ = projector.changeScene(scene) { scene, _ in scene.tabs.setHidden(string(summary.name!), summary.hidden); return nil }
        case .split_select:
            let selection = routes()
            _ = projector.changeScene(scene) {
                $0.select(selection, in: summary.column!, of: summary.name.map(string) ?? "main", cache: &$1)
                return nil
            }
        case .split_visibility:
            _ = projector.changeScene(scene) {
                $0.setVisibility(summary.visibility!, of: string(summary.name!), cache: &$1)
                return nil
            }
        case .modal_present:
            _ = projector.changeScene(scene) { scene, _ in scene.present(string(summary.name!), style: summary.style ?? .sheet) }
        case .modal_dismiss:
            _ = projector.changeScene(scene) { scene, _ in scene.dismiss(summary.name.map(string)) }
        case .layout_change:
            // A line with `tabPresentation` has no summary.
            _ = projector.changeScene(scene) { scene, _ in scene.sizeClass = summary.sizeClass!; return nil }
        case .tabs_define:
            // Its text field is `searchTab` (a line with `sections` has no summary).
            let order = CanonicalLineParser.strings(ofArray: summary.tabs!, in: line, names: storage.names)
            let searchTab = summary.name.map(string)
            _ = projector.changeScene(scene) { scene, _ in
                scene.tabs.define(order, sections: nil, searchTab: searchTab)
                return nil
            }
        case .tabs_customize, .state_restore:
            preconditionFailure("no summary is made of this kind")
        }
        _ = projector.finish(nil, wasEnded: wasEnded)
    }

}
