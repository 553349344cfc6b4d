#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

extension CollectorUpload {
    /// Reads and validates a device's `.navlog` file sent as a body
    /// (`POST /v1/logs`): its events become the upload's lines, checked as
    /// an NDJSON body's are (the same validator, the `Navlog-Session`
    /// rule), without the event limit but with ``Limits/maxLogEventBytes``.
    /// As `ingest` reads a `.navlog` input: a torn tail is left out
    /// silently, and other damage is a rejected line after the last event
    /// (what comes before it is stored), be it found on opening the log or
    /// in decompressing a block.
    ///
    /// The log reader works on files, so the body is set down in a
    /// temporary file in the system's temporary directory (`$TMPDIR`, else
    /// `/tmp`), never in the store, and removed before this returns.
    ///
    /// ```swift
    /// let upload = try CollectorUpload(log: bytes, session: nil, limits: .init())
    /// ```
    ///
    /// - Throws: ``Refusal``: `.notALog` for a body that does not open as a
    ///   log, `.logTooLarge` over the limit, `.spool` when the temporary
    ///   file cannot be written or read.
    public init(log: [UInt8], session: String?, limits: Limits) throws(Refusal) {
        guard log.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        guard !log.isEmpty else { throw .notALog("the body is empty") }
        let path = try Self.spool(log)
        defer { try? FileSystem.remove(path) }
        let reader: LogReader
        do { reader = try LogReader(path: path) } catch {
            if error.isCorruption { throw .notALog(Self.located(error).description) }
            throw .spool(error.reason)
        }
        var events: [UInt8] = []
        var overLimit = false
        // Damage found only once a block is decompressed ends the events as the reader's does.
        var damage: String? = reader.damage.flatMap { $0.isTornTail ? nil : "the log: \($0)" }
        do {
            try reader.forEachContent { content in
                guard !overLimit else { return }
                guard events.count + content.count <= limits.maxLogEventBytes else { overLimit = true; return }
                events.append(contentsOf: content)
            }
        } catch {
            guard error.isCorruption else { throw .spool(error.reason) }
            damage = Self.located(error).description
        }
        if overLimit { throw .logTooLarge(limit: limits.maxLogEventBytes) }
        var lines: [Line] = []
        if !events.isEmpty {
            let read = try CollectorUpload(body: events, session: session,
                                           limits: Limits(maxBytes: .max, maxEvents: .max, maxLogEventBytes: limits.maxLogEventBytes))
            lines = read.lines
        }
        if let damage {
            let number = (lines.last?.number ?? 0) + 1
            lines.append(Line(number: number, start: 0, length: 0, verdict: .rejected(.damagedLog(damage))))
        }
        self.init(body: events, lines: lines)
    }

    /// `error` placed in "the log" rather than in the temporary file.
    private static func located(_ error: FileError) -> FileError {
        var placed = error
        placed.path = "the log"
        return placed
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    private static func spool(_ bytes: [UInt8]) throws(Refusal) -> String {
        do throws(FileError) {
            let file = try TemporaryFile(named: "navlog-upload-", suffix: ".navlog")
            do throws(FileError) {
                try file.write(bytes)
            } catch {
                try? FileSystem.remove(file.path)
                throw error
            }
            return file.path
        } catch {
            throw .spool(error.description)
        }
    }
}
