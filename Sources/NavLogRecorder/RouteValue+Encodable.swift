import Foundation
import NavLogCore

extension RouteValue {
    /// The route value of an identifiable, encodable app value: its type
    /// name and id (as ``init(identifying:)``), and its JSON encoding
    /// (`JSONEncoder`, keys sorted) as `data`.
    ///
    /// - Throws: the encoder's error, or the parse error of its output.
    public init<T: Identifiable & Encodable>(encoding value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        self.init(type: String(describing: T.self), id: String(describing: value.id), data: try JSONValue.parse(json))
    }
}
