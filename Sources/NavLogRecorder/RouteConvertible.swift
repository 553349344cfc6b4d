import NavLogCore

/// An app value that stands for a route value (one element of a
/// NavigationPath, one selection in a list).
///
/// ```swift
/// enum Route: Hashable, RouteConvertible {
///     case recipe(String), settings
///     var routeValue: RouteValue {
///         switch self {
///         case .recipe(let id): RouteValue(type: "Recipe", id: id)
///         case .settings: RouteValue(type: "Settings")
///         }
///     }
/// }
/// ```
///
/// A value that is `Identifiable` gets a default: its type name and its id
/// (see ``RouteValue/init(identifying:)``).
public protocol RouteConvertible {
    /// The route value recorded for this value.
    var routeValue: RouteValue { get }
}

extension RouteValue: RouteConvertible {
    public var routeValue: RouteValue { self }
}

extension RouteValue {
    /// The route value of an identifiable app value: `type` is the value's
    /// type name (without module), `id` the description of its id.
    public init<T: Identifiable>(identifying value: T) {
        self.init(type: String(describing: T.self), id: String(describing: value.id))
    }
}

extension RouteConvertible where Self: Identifiable {
    /// Type name and id (``RouteValue/init(identifying:)``).
    public var routeValue: RouteValue { RouteValue(identifying: self) }
}
