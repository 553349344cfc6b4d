// Metrics/: The collector's Prometheus metrics and the middleware that counts requests.

import CoreMetrics
import Prometheus

/// The collector's metrics, on swift-metrics with a Prometheus registry of
/// its own, and their text for `GET /metrics`: requests by route and
/// status, events stored, duplicates and rejected lines, commits and how
/// long they took, and the write queue's depth.
final class CollectorMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let stored: CoreMetrics.Counter
    private let duplicates: CoreMetrics.Counter
    private let rejected: CoreMetrics.Counter
    private let commitSeconds: CoreMetrics.Timer
    private let commitRequests: CoreMetrics.Recorder
    private let queueDepth: CoreMetrics.Gauge

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        stored = CoreMetrics.Counter(label: "navlog_events_stored_total", factory: factory)
        duplicates = CoreMetrics.Counter(label: "navlog_events_duplicate_total", factory: factory)
        rejected = CoreMetrics.Counter(label: "navlog_lines_rejected_total", factory: factory)
        commitSeconds = CoreMetrics.Timer(label: "navlog_commit_seconds", factory: factory)
        commitRequests = CoreMetrics.Recorder(label: "navlog_commit_requests", aggregate: true, factory: factory)
        queueDepth = CoreMetrics.Gauge(label: "navlog_write_queue_depth", factory: factory)
    }

    /// One request answered.
    func request(route: String, status: Int) {
        CoreMetrics.Counter(label: "navlog_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory).increment()
    }

    /// What one upload came to.
    func upload(stored: Int, duplicates: Int, rejected: Int) {
        self.stored.increment(by: stored)
        self.duplicates.increment(by: duplicates)
        self.rejected.increment(by: rejected)
    }

    /// One commit: how many requests it covered, how long it took.
    func commit(requests: Int, seconds: Double) {
        commitSeconds.recordNanoseconds(Int64(seconds * 1e9))
        commitRequests.record(requests)
    }

    /// The Prometheus text, with the queue's depth as it is now.
    func text(queueDepth depth: Int) -> [UInt8] {
        queueDepth.record(depth)
        return registry.emitToBuffer()
    }
}
