import ArgumentParser
import NavLogStore
import NavLogServer

/// `navlog serve --store DIR [--listen ADDR] [--keys FILE]`: the collector
/// and its read API (docs/serve.md, schemas/openapi.yaml).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Collect events uploaded over HTTP into a store, and answer questions about it.",
        discussion: """
            The server is the store's one writer while it runs; readers keep working beside \
            it. Uploads (POST /v1/events: NDJSON, gzip or not, every event with its seq) are \
            answered once durable; so are device logs (POST /v1/logs: a .navlog file). The API is described in schemas/openapi.yaml.

            Once it listens it prints `listening on http://HOST:PORT` on standard error \
            (--listen 127.0.0.1:0 picks a free port). SIGTERM or SIGINT: it stops taking \
            requests, answers those under way, commits and exits 0.

            Without --keys it listens on loopback addresses only and asks for no key. A keys \
            file holds one key a line, `write KEY` (may upload and read) or `read KEY`.

            Example:
              navlog serve --store events --listen 127.0.0.1:8080
            """
    )

    @Option(help: ArgumentHelp("The store to write (made when absent or empty).", valueName: "dir"), completion: .directory)
    var store: String

    @Option(help: ArgumentHelp("HOST:PORT to listen on (default 127.0.0.1:8080; port 0 picks a free one).", valueName: "address"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("A file of keys: `write KEY` or `read KEY`, one a line.", valueName: "file"), completion: .file())
    var keys: String?

    /// For tests of the 429 answer: 0 refuses every upload as busy.
    @Option(name: .customLong("queue-limit"), help: ArgumentHelp("Upload requests that may wait for the writer (default 256).", visibility: .hidden))
    var queueLimit = 256

    func run() throws {
        guard let address = ListenAddress(listen) else {
            throw CLIFailure.trouble("--listen \(listen): expected HOST:PORT, such as 127.0.0.1:8080")
        }
        guard queueLimit >= 0 else { throw CLIFailure.trouble("--queue-limit \(queueLimit): expected 0 or more") }
        var ring: KeyRing?
        if let keys {
            let bytes: [UInt8]
            do { bytes = try SmallFile.read(keys) } catch { throw CLIFailure.trouble(error.description) }
            do { ring = try KeyRing(text: String(decoding: bytes, as: UTF8.self)) } catch {
                throw CLIFailure.trouble("\(keys): \(error)")
            }
            if ring?.isEmpty == true { throw CLIFailure.trouble("\(keys): no key in it") }
        }
        do {
            var configuration = try CollectorServer.Configuration(store: store, address: address, keys: ring)
            configuration.queueCapacity = queueLimit
            try CollectorServer.runBlocking(configuration) { url in
                Output.errorBlock("listening on \(url)")
            }
        } catch {
            throw CLIFailure.trouble(error.description)
        }
    }
}
