/// Reading a scene object (docs/state.md) back into a ``SceneState``: the
/// `state` of a `state.restore` event, and each scene of a checkpoint.
extension SceneState {
    /// Decodes the `state` object of a `state.restore` event (a scene object
    /// as in docs/state.md). Returns the scene and the object as it will be
    /// written back canonically.
    ///
    /// Lenient on what is missing, strict on what is there:
    /// - a missing or `null` key takes its default (no modals, `sizeClass`
    ///   unset, no splits or stacks, no tabs, nothing selected); in `splits`,
    ///   a missing column is `[]` and a missing `visibility` is `automatic`;
    ///   a missing modal `style` is `sheet`; a stack or split that is `null`
    ///   is an error (an entry of a map is not an optional field);
    /// - `screen` is derived, so its value is ignored (it must be a string
    ///   when present); keys that
    ///   docs/state.md does not define are ignored (and kept in `canonical`);
    /// - wrong JSON types and unknown enumeration values are errors, as is a
    ///   modal without a string `modal`; route values need a non-empty string
    ///   `type`, an `id` that is a string or an integer literal, any `data`.
    ///
    /// Tabs are normalised the way the events would leave them: `order` keeps
    /// each tab's first occurrence; a hidden tab not in `order` is appended
    /// to it (as `tab.visibility` would), then a tab of `sections` or the
    /// `searchTab` that it leaves out (as `tabs.define` would); `selected`
    /// is kept as given; `customized` `false` is the same as absent.
    ///
    /// `canonical` is `object` as given, except that route values are reduced
    /// to `type`/`id`/`data` (integer ids as strings, `null` members dropped).
    ///
    /// Errors name the field by its path, e.g. `state.stacks.home[0].type`.
    public static func decodeRestore(
        _ object: [String: JSONValue]
    ) throws(EventParseError) -> (state: SceneState, canonical: [String: JSONValue]) {
        try decode(object, canonical: true) { "state" }
    }

    /// Decodes a scene object whose path is `path()`; builds the canonical
    /// object only when asked to (otherwise it is returned empty).
    static func decode(
        _ object: [String: JSONValue], canonical wantCanonical: Bool, path: () -> String
    ) throws(EventParseError) -> (state: SceneState, canonical: [String: JSONValue]) {
        var scene = SceneState()
        var canonical: [String: JSONValue] = wantCanonical ? object : [:]

        if let value = StateDecoding.present(object["modals"]) {
            guard case .array(let items) = value else {
                throw .wrongType(field: "\(path()).modals", expected: "an array of modals", found: value.typeName)
            }
            scene.modals.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                let members = try StateDecoding.object(item) { "\(path()).modals[\(i)]" }
                guard let idValue = StateDecoding.present(members["modal"]) else {
                    throw .missingField(field: "\(path()).modals[\(i)].modal")
                }
                let id = try StateDecoding.string(idValue) { "\(path()).modals[\(i)].modal" }
                var style = ModalStyle.sheet
                if let styleValue = StateDecoding.present(members["style"]) {
                    style = try StateDecoding.enumeration(styleValue) { "\(path()).modals[\(i)].style" }
                }
                scene.modals.append(ModalPresentation(modal: id, style: style))
            }
        }

        if let value = StateDecoding.present(object["screen"]), case .string = value {} else if let value = StateDecoding.present(object["screen"]) {
            throw .wrongType(field: "\(path()).screen", expected: "a string", found: value.typeName)
        }

        if let value = StateDecoding.present(object["sizeClass"]) {
            scene.sizeClass = try StateDecoding.enumeration(value) { "\(path()).sizeClass" } as SizeClass
        }

        if let value = StateDecoding.present(object["stacks"]) {
            let members = try StateDecoding.object(value) { "\(path()).stacks" }
            var canonicalStacks = members
            scene.stacks.reserveCapacity(members.count)
            // In key order, so that of several problems the same one is reported.
            for (id, pathValue) in members.sorted(by: { $0.key < $1.key }) {
                guard let pathValue = StateDecoding.present(pathValue) else {
                    throw .wrongType(field: "\(path()).stacks.\(id)", expected: "an array of route values", found: "null")
                }
                let values = try StateDecoding.routes(pathValue) { "\(path()).stacks.\(id)" }
                scene.stacks[id] = values
                if wantCanonical { canonicalStacks[id] = values.jsonValue }
            }
            if wantCanonical { canonical["stacks"] = .object(canonicalStacks) }
        }

        if let value = StateDecoding.present(object["splits"]) {
            let members = try StateDecoding.object(value) { "\(path()).splits" }
            var canonicalSplits = members
            for (id, splitValue) in members.sorted(by: { $0.key < $1.key }) {
                guard let splitValue = StateDecoding.present(splitValue) else {
                    throw .wrongType(field: "\(path()).splits.\(id)", expected: "an object", found: "null")
                }
                let splitMembers = try StateDecoding.object(splitValue) { "\(path()).splits.\(id)" }
                var canonicalSplit = splitMembers
                var split = SplitState()
                for column in SplitColumn.allCases {
                    guard let columnValue = StateDecoding.present(splitMembers[column.rawValue]) else { continue }
                    let values = try StateDecoding.routes(columnValue) { "\(path()).splits.\(id).\(column.rawValue)" }
                    split[column] = values
                    if wantCanonical { canonicalSplit[column.rawValue] = values.jsonValue }
                }
                if let visibilityValue = StateDecoding.present(splitMembers["visibility"]) {
                    split.visibility = try StateDecoding.enumeration(visibilityValue) {
                        "\(path()).splits.\(id).visibility"
                    }
                }
                scene.splits[id] = split
                if wantCanonical { canonicalSplits[id] = .object(canonicalSplit) }
            }
            if wantCanonical { canonical["splits"] = .object(canonicalSplits) }
        }

        if let value = StateDecoding.present(object["tabs"]) {
            let members = try StateDecoding.object(value) { "\(path()).tabs" }
            let order = try StateDecoding.present(members["order"]).map { (v) throws(EventParseError) in
                try StateDecoding.strings(v) { "\(path()).tabs.order" }
            }
            let hidden = try StateDecoding.present(members["hidden"]).map { (v) throws(EventParseError) in
                try StateDecoding.strings(v) { "\(path()).tabs.hidden" }
            }
            let selected = try StateDecoding.present(members["selected"]).map { (v) throws(EventParseError) in
                try StateDecoding.string(v) { "\(path()).tabs.selected" }
            }
            scene.tabs.restore(order: order, hidden: hidden, selected: selected)
            if let sectionsValue = StateDecoding.present(members["sections"]) {
                let sections = try StateDecoding.sections(sectionsValue) { "\(path()).tabs.sections" }
                for section in sections {
                    for tab in section.tabs where !scene.tabs.order.contains(tab) { scene.tabs.order.append(tab) }
                }
                scene.tabs.sections = sections
            }
            if let searchValue = StateDecoding.present(members["searchTab"]) {
                let tab = try StateDecoding.string(searchValue) { "\(path()).tabs.searchTab" }
                if !scene.tabs.order.contains(tab) { scene.tabs.order.append(tab) }
                scene.tabs.searchTab = tab
            }
            if let presentationValue = StateDecoding.present(members["presentation"]) {
                scene.tabs.presentation = try StateDecoding.enumeration(presentationValue) {
                    "\(path()).tabs.presentation"
                } as TabPresentation
            }
            if let customizedValue = StateDecoding.present(members["customized"]) {
                guard case .bool(let customized) = customizedValue else {
                    throw .wrongType(field: "\(path()).tabs.customized", expected: "a boolean", found: customizedValue.typeName)
                }
                scene.tabs.customized = customized
            }
        }

        return (scene, canonical)
    }
}

extension TabState {
    /// A restored scene's `order`, `hidden` and `selected` (each `nil` when
    /// absent) on new tabs: `order` keeps each tab's first occurrence, a
    /// hidden tab not in it is appended (as `tab.visibility` would), and
    /// `selected` is kept as given.
    mutating func restore(order: [String]?, hidden: [String]?, selected: String?) {
        if let order { self.order = Self.uniqued(order) }
        for tab in hidden ?? [] { setHidden(tab, true) }
        if let selected { self.selected = selected }
    }
}
