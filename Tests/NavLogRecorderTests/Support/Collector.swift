import Foundation
import NavLogTestSupport

/// `navlog serve --store DIR` on loopback, on `port` (0: one the system picks),
/// started and stopped through the shared ``NavlogServe``.
final class Collector: Sendable {
    let store: String
    let served: NavlogServe
    /// The running server (stop it with `server.stop(SIGTERM)`).
    var server: ServerProcess { served.server }
    var port: Int { served.port }
    var url: URL { URL(string: served.url)! }

    init(store: String, port: Int = 0, extra: [String] = []) throws {
        self.store = store
        served = try NavlogServe(navlog: navlogPath, store: store, port: port, arguments: extra)
    }
}

/// The built `navlog`.
let navlogPath = productsDirectory().appendingPathComponent("navlog").path

/// Polls `condition` every 10 ms for at most `seconds`; whether it held.
func eventually(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
