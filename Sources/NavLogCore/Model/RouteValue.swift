/// One element of a NavigationPath or one selection in a list:
/// `{"type": "Recipe", "id": "apple-pie", "data": …}`.
///
/// Only `type`, `id` and `data` are kept; an integer `id` on input becomes
/// its decimal string.
public struct RouteValue: Hashable, Sendable {
    /// The value's type name; non-empty.
    public var type: String
    /// The value's identity within its type, if any.
    public var id: String?
    /// Free-form payload, preserved untouched.
    public var data: JSONValue?

    public init(type: String, id: String? = nil, data: JSONValue? = nil) {
        self.type = type
        self.id = id
        self.data = data
    }

    /// The screen name: `type`, or `type/id` when the value has an id.
    public var screenName: String {
        if let id { return type + "/" + id }
        return type
    }
}
