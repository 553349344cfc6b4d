// Lifecycle/: The collector's writer as a service of the server's group, stopped cleanly on shutdown.

import NavLogStore
import ServiceLifecycle

/// The collector's writer as a service of the server's group: it runs
/// until the group shuts down, which happens after the HTTP server has
/// stopped taking requests and answered those under way (the group stops
/// its services in reverse order, and this one comes first); then it
/// stores what is still queued, commits, and closes the store.
struct CollectorService: Service {
    let collector: StoreCollector

    func run() async throws {
        try? await gracefulShutdown()
        do { try collector.close() } catch { throw CollectorServer.Failure.store(error) }
    }
}
