// NavLogServer/: The collector (`navlog serve`) on Hummingbird: the server (this file), `Routes/`, `Auth/`, `Limits/`, `Errors/`, `Metrics/`, `Lifecycle/`, `Viewer/`.
import Dispatch
import Hummingbird
import Logging
import NavLogStore
import ServiceLifecycle

/// `navlog serve`: the collector's HTTP server on Hummingbird
/// (schemas/openapi.yaml, docs/serve.md). It opens the store for writing
/// (the store's one writer while it runs), stores uploads through a
/// ``StoreCollector``, answers reads, and on SIGTERM or SIGINT stops taking
/// requests, answers those under way, commits, closes the store and returns.
///
/// ```swift
/// let configuration = try CollectorServer.Configuration(store: "events", listen: "127.0.0.1:0", keys: nil)
/// try CollectorServer.runBlocking(configuration) { url in print("listening on \(url)") }
/// ```
public enum CollectorServer {
    /// What to serve, where, and how.
    public struct Configuration: Sendable {
        /// The store's directory (made when absent or empty).
        public var store: String
        public var address: ListenAddress
        /// The keys; `nil`: no key asked (loopback only).
        public var keys: KeyRing?
        public var limits = CollectorUpload.Limits()
        /// Upload requests that may wait for the writer before more get 429 (0: every upload gets 429).
        public var queueCapacity = 256
        /// Seconds a connection may stay idle (a slow or silent client) before it is closed.
        public var idleTimeoutSeconds = 30

        /// - Throws: ``Failure/notLoopback(_:)`` for an address off the
        ///   loopback without keys.
        public init(store: String, address: ListenAddress, keys: KeyRing?) throws(Failure) {
            guard keys != nil || address.isLoopback else { throw .notLoopback(address.description) }
            self.store = store
            self.address = address
            self.keys = keys
        }
    }

    /// Why the server could not run.
    public enum Failure: Error, CustomStringConvertible {
        /// Off the loopback without `--keys`.
        case notLoopback(String)
        /// The store cannot be opened for writing.
        case target(StoreTarget.Failure)
        /// The store failed while writing or closing.
        case store(SegmentStoreError)
        /// The address cannot be listened on.
        case listen(address: String, reason: String)

        public var description: String {
            switch self {
            case .notLoopback(let address):
                "\(address): not a loopback address; listening beyond this machine needs --keys FILE"
            case .target(let failure): failure.description
            case .store(let error): error.description
            case .listen(let address, let reason): "cannot listen on \(address): \(reason)"
            }
        }
    }

    /// Runs the server until SIGTERM or SIGINT; `onListening` gets its URL
    /// (`http://127.0.0.1:PORT`, the port it bound) once it listens.
    ///
    /// - Throws: ``Failure``.
    public static func run(_ configuration: Configuration, onListening: @escaping @Sendable (String) -> Void) async throws(Failure) {
        var logger = Logger(label: "navlog.serve") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        let store: SegmentStore
        do { store = try StoreTarget.openForWriting(at: configuration.store) } catch { throw .target(error) }
        let metrics = CollectorMetrics()
        let collector: StoreCollector
        do {
            collector = try StoreCollector(store: store, options: StoreCollector.Options(
                queueCapacity: configuration.queueCapacity,
                onCommit: { requests, _, seconds in metrics.commit(requests: requests, seconds: seconds) }))
        } catch { throw .store(error) }
        let router = Router()
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: KeyMiddleware(keys: configuration.keys))
        UploadRoutes(collector: collector, limits: configuration.limits, metrics: metrics).add(to: router)
        let storePath = DirectoryPath.trimmed(configuration.store)
        SessionRoutes(store: storePath).add(to: router)
        AnalyticsRoutes(store: storePath).add(to: router)
        let assets = ViewerAssets.load()
        ViewerRoutes.report(assets, to: logger)
        ViewerRoutes(assets: assets, keys: configuration.keys).add(to: router)
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text(queueDepth: collector.queueDepth))))
        }
        let address = configuration.address
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)))),
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in
                onListening("http://\(address.urlHost):\(channel.localAddress?.port ?? address.port)")
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: CollectorService(collector: collector)), .init(service: app)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do { try await group.run() } catch let failure as Failure { throw failure } catch {
            throw .listen(address: address.description, reason: "\(error)")
        }
    }

    /// ``run(_:onListening:)`` from synchronous code (the command line):
    /// blocks the calling thread until the server has stopped.
    public static func runBlocking(_ configuration: Configuration, onListening: @escaping @Sendable (String) -> Void) throws(Failure) {
        let outcome = Locked<Failure?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(Failure) { try await run(configuration, onListening: onListening) } catch {
                outcome.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let failure = outcome.withLock({ $0 }) { throw failure }
    }
}
