// NavLogServeCommand/: The collector's options and help, shared by `navlog serve` and the `navlog-serve` program.
import ArgumentParser

/// The collector's command line, one copy for both programs that read it:
/// `navlog serve` checks it and hands the same words to `navlog-serve`,
/// which parses them again and serves (docs/serve.md).
public struct ServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store to write (made when absent or empty).", valueName: "dir"), completion: .directory)
    public var store: String

    @Option(help: ArgumentHelp("HOST:PORT to listen on (default 127.0.0.1:8080; port 0 picks a free one).", valueName: "address"))
    public var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("A file of keys: `write KEY` or `read KEY`, one a line.", valueName: "file"), completion: .file())
    public var keys: String?

    /// For tests of the 429 answer: 0 refuses every upload as busy.
    @Option(name: .customLong("queue-limit"), help: ArgumentHelp("Upload requests that may wait for the writer (default 256).", visibility: .hidden))
    public var queueLimit = 256

    public init() {}
}

/// What `navlog serve --help` says above the options.
public enum ServeHelp {
    public static let abstract = "Collect events uploaded over HTTP into a store, and answer questions about it."

    public static let discussion = """
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
}
