#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// `navlog cat LOG --follow`, `navlog cat STORE --session ID --follow`: the
/// events stored so far, then those a writer commits, each once and in seq
/// order, until Ctrl-C or SIGTERM (exit 0) or, with `--to N`, until the
/// session passes seq N. A log, or a session of a store, that does not
/// exist yet is refused as without `--follow` (exit 2), not waited for.
extension CatCommand {
    /// What is followed: a log (a file, or a version-1 store's session) or a segment store's session.
    private enum Followed {
        case log(LogReader, LogCursor, file: String)
        case stored(StoredSessionFollower)
    }

    func runFollowing() throws {
        // Blocked before any thread starts, and asked for between polls.
        StopSignals.hold()
        let followed = try openFollowed()
        let types = Set(type)
        var writer = CanonicalWriter(capacity: 1 << 16)
        var parser = EventLineParser()
        while true {
            let passedTo: Bool
            do {
                passedTo = try printNew(followed, types, &writer, &parser)
            } catch {
                Output.write(writer.bytes)
                Output.flushStandardOutput()
                throw error
            }
            Output.write(writer.bytes)
            writer.reset()
            Output.flushStandardOutput()
            if passedTo || StopSignals.pending() != nil { return }
            usleep(StoredSessionFollower.pollMicroseconds)
            if StopSignals.pending() != nil { return }
        }
    }

    /// Opens what `cat` names, as without `--follow`.
    private func openFollowed() throws -> Followed {
        if session != nil || SessionLookup.isStore(log) {
            switch try SessionInput.open(log, session: session) {
            case .log(let reader, let file): return .log(reader, reader.cursor(fromSeq: from ?? 1, toSeq: to ?? .max), file: file)
            case .stored(let stored): return .stored(StoredSessionFollower(stored, afterSeq: (from ?? 1) - 1))
            case .ndjson: break
            }
        }
        let reader: LogReader
        do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
        return .log(reader, reader.cursor(fromSeq: from ?? 1, toSeq: to ?? .max), file: log)
    }

    /// Prints into `writer` the events committed since the last call that
    /// pass `--to` and `--type`; whether the session has passed `--to`.
    /// Damage (not a torn tail: a writer at work) ends it with exit 1.
    private func printNew(_ followed: Followed, _ types: Set<String>, _ writer: inout CanonicalWriter,
                          _ parser: inout EventLineParser) throws -> Bool {
        let to = to ?? .max
        switch followed {
        case .log(let reader, let cursor, let file):
            do {
                try reader.refresh()
                while let event = try cursor.next() {
                    if types.isEmpty || types.contains(event.type) { Self.emit(event, &writer) }
                }
            } catch { throw CLIFailure(error) }
            if let damage = reader.damage, !damage.isTornTail { throw CLIFailure.no("\(file): \(damage)") }
            return cursor.lastSeq >= to
        case .stored(let follower):
            do {
                try follower.next { line, seq throws(SegmentStoreError) in
                    guard seq <= to else { return }
                    if !types.isEmpty {
                        guard let event = try? parser.parse(line) else {
                            throw .invalidEvent(session: follower.id, seq: seq, reason: "a stored line does not parse as an event")
                        }
                        guard types.contains(event.type) else { return }
                    }
                    writer.bytes.append(contentsOf: line)
                    writer.bytes.append(0x0A)
                    if writer.bytes.count >= 1 << 16 {
                        Output.write(writer.bytes)
                        writer.reset()
                    }
                }
            } catch { throw CLIFailure(SessionLookupError.segments(error)) }
            if let damage = follower.damage.first { throw CLIFailure.no(damage.description) }
            return follower.lastSeq >= to
        }
    }
}
