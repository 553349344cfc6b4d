import NavLogCore

extension JSONValue {
    /// An integer as a JSON number.
    static func integer(_ n: some BinaryInteger) -> JSONValue { .number(String(n)) }

    /// An integer as a JSON number, or `null` when there is none.
    static func integer(_ n: (some BinaryInteger)?) -> JSONValue { n.map { .number(String($0)) } ?? .null }
}
