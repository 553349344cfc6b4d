extension JSONValue {
    /// An integer as a JSON number.
    public static func integer(_ n: some BinaryInteger) -> JSONValue { .number(String(n)) }

    /// An integer as a JSON number, or `null` when there is none.
    public static func integer(_ n: (some BinaryInteger)?) -> JSONValue { n.map { .number(String($0)) } ?? .null }
}
