extension GeneralLineParser {
    // MARK: Building the event

    mutating func build() throws(EventParseError) -> Event {
        let session: String
        if let known = early.session { session = known } else { session = try sessionID() }
        if let problem = SessionID.problem(session) { throw problem }
        let (tag, type) = try kindTag()
        guard has(.t) else { throw .missingField(field: "t") }
        let t: Timestamp
        if let known = early.t { t = known } else { t = try timestamp(.t) }
        var seq = 0
        if has(.seq) {
            if let known = early.seq { seq = known } else { seq = try integer(.seq) }
            guard seq >= 1 else { throw .invalidValue(field: "seq", reason: "must be ≥ 1, found \(seq)") }
        }
        let scene = has(.scene) ? try string(.scene) : nil
        let cause = has(.cause) ? try integer(.cause) : nil
        let meta = has(.meta) ? try knownObject(.meta) : nil

        let spec = tag.spec
        var fields = KindFields()
        try decode(spec, into: &fields)
        if tag == .other { fields.text = type }

        // Known names that this kind does not define are ordinary extra fields.
        let leftover = present & ~spec.mask & ~CanonicalKey.commonMask
        if canonical {
            storage.lastLineIsCanonical = leftover == 0 && fieldsAreCanonical(spec, fields, meta: meta)
        }
        if leftover != 0 {
            for key in CanonicalKey.allCases where leftover & key.bit != 0 {
                var sub = reader(at: key)
                extra[key.name] = try sub.parseValue()
            }
        }
        return Event(session: session, seq: seq, t: t, scene: scene, kind: EventKind(tag, taking: &fields),
                     cause: cause, meta: meta, extra: extra)
    }

    /// Decodes the kind's fields in the order of its row: the first one
    /// missing (when required) or of the wrong type is the one rejected.
    mutating func decode(_ spec: KindSpec, into f: inout KindFields) throws(EventParseError) {
        for field in spec.fields {
            let key = field.key
            guard has(key) else {
                if field.required { throw .missingField(field: key.name) }
                continue
            }
            switch key {
            case .app: f.app = try knownObject(key)
            case .device: f.device = try knownObject(key)
            case .state:
                // A reader that never writes the object again gets the scene alone, as from the fast path.
                let keepsJSON = storage.keepsRestoredJSON
                let (state, json) = try SceneState.decode(try object(key), canonical: keepsJSON) { "state" }
                f.restored = (state, json)
            case .column: f.column = try enumeration(key)
            case .visibility: f.visibility = try enumeration(key)
            case .style: f.style = try enumeration(key)
            case .sizeClass: f.sizeClass = try enumeration(key)
            case .tabPresentation: f.tabPresentation = try enumeration(key)
            case .sections:
                var sub = reader(at: key)
                f.sections = try StateDecoding.sections(try sub.parseValue()) { key.name }
            case .value:
                // Usually decoded during the scan already.
                if let route = early.route { f.route = route } else { f.route = try requiredRoute(key) }
            default:
                switch field.valueType {
                case .text: f.text = try string(key)
                case .integer: f.integer = try integer(key)
                case .positiveInteger:
                    let value = try integer(key)
                    guard value >= 1 else { throw .invalidValue(field: key.name, reason: "must be ≥ 1, found \(value)") }
                    f.integer = value
                case .bool: f.flag = try bool(key)
                case .strings: f.setStrings(key, try strings(key))
                case .routes: f.routes = try routes(key)
                case .route, .enumeration, .object, .sections, .restoredState, .timestamp:
                    preconditionFailure("\(key.name) is decoded above or is common")
                }
            }
        }
    }

    /// The session id, reusing the previous line's String when it is the same.
    func sessionID() throws(EventParseError) -> String {
        guard has(.session) else { throw .missingField(field: "session") }
        guard let token = stringToken(.session) else {
            var sub = reader(at: .session)
            throw wrongType("session", "a string", &sub)
        }
        if token.hasEscapes { return r.string(token) }
        return storage.session(UnsafeRawBufferPointer(rebasing: r.bytes[token.start..<token.end]))
    }

    /// The event kind, matched on the bytes of `type`; the type string is
    /// only made for kinds navlog does not know.
    func kindTag() throws(EventParseError) -> (KindTag, String) {
        guard has(.type) else { throw .missingField(field: "type") }
        guard let token = stringToken(.type) else {
            var sub = reader(at: .type)
            throw wrongType("type", "a string", &sub)
        }
        let sub = r
        guard token.end > token.start else { throw .invalidValue(field: "type", reason: "must not be empty") }
        if !token.hasEscapes, let tag = KindTag.match(name: UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return (tag, "")
        }
        let text = sub.string(token)
        if token.hasEscapes, let tag = KindTag.named(text) { return (tag, "") }
        return (.other, text)
    }
}
