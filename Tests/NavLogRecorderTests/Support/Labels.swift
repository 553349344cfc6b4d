import Foundation
import NavLogCore
import NavLogStore

/// The label of a `mark` event.
func label(_ event: Event) -> String? {
    if case .mark(let label) = event.kind { return label }
    return nil
}
