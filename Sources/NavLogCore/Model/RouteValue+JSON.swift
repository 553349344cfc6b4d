/// Route values as JSON (docs/events.md).
extension RouteValue {
    /// The value as a JSON object with only `type`, `id` (when present) and
    /// `data` (when present): `{"id":"apple-pie","type":"Recipe"}`.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["type": .string(type)]
        if let id { object["id"] = .string(id) }
        if let data { object["data"] = data }
        return .object(object)
    }
}

extension Array where Element == RouteValue {
    /// The values as a JSON array of route value objects.
    var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}
