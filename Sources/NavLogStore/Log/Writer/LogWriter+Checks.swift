#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// What a ``LogWriter`` refuses: events of another session, a seq that does
/// not increase, a `t` out of range, a line over the limit.
extension LogWriter {
    /// The earliest and latest instants whose RFC 3339 form has a 4-digit year.
    static let earliestT: Int64 = -62_167_219_200_000
    static let latestT: Int64 = 253_402_300_799_999

    /// Checks `event` against the log and writes its canonical line (with
    /// `\n`) into `canonical`; returns its seq. Changes nothing else.
    func stage(_ event: Event) throws(FileError) -> Int {
        let seq = try check(event)
        try stageWritten(event, seq: seq)
        return seq
    }

    /// Writes the canonical line (with `\n`) of a checked event, numbered
    /// `seq`, into `canonical`; refuses it when it is over the length limit.
    func stageWritten(_ event: Event, seq: Int) throws(FileError) {
        canonical.reset()
        if event.seq == seq {
            canonical.write(event)
        } else {
            var numbered = event
            numbered.seq = seq
            canonical.write(numbered)
        }
        guard canonical.bytes.count <= EventParser.maxLineBytes else { throw lineTooLong(canonical.bytes.count, seq: seq) }
        canonical.bytes.append(0x0A)
    }

    /// The refusal of an event whose canonical line is over the limit.
    func lineTooLong(_ bytes: Int, seq: Int) -> FileError {
        FileError(path: path, kind: .rejected(.lineTooLong(bytes: bytes)), seq: seq)
    }

    /// Checks `event` against the log (open, session, seq, `t`); returns the
    /// seq it gets. Changes nothing.
    func check(_ event: Event) throws(FileError) -> Int {
        try checkOpen()
        func reject(_ why: Refusal, seq: Int?) -> FileError {
            FileError(path: path, kind: .rejected(why), seq: seq)
        }
        guard !event.session.isEmpty else { throw reject(.emptySession, seq: event.seq == 0 ? nil : event.seq) }
        if session != nil, !isLogSession(event.session) {
            throw reject(.otherSession(event.session, log: session!), seq: event.seq == 0 ? nil : event.seq)
        }
        let seq: Int
        do throws(SeqRefusal) { seq = try Sequencer.seq(for: event.seq, after: lastSeq) } catch {
            throw reject(.seq(error), seq: event.seq == 0 ? nil : event.seq)
        }
        try check(event.t, seq: seq)
        return seq
    }

    /// Throws unless the writer can take an event.
    @inline(__always)
    func checkOpen() throws(FileError) {
        guard !closed else { throw FileError(path: path, kind: .closed) }
        if let failure { throw failure }
    }

    /// Refuses a given `seq` that does not increase (``Sequencer/check(_:after:)``).
    @inline(__always)
    func check(seq: Int) throws(FileError) {
        do throws(SeqRefusal) { try Sequencer.check(seq, after: lastSeq) } catch {
            throw FileError(path: path, kind: .rejected(.seq(error)), seq: seq)
        }
    }

    /// Refuses a `t` outside years 0000–9999.
    @inline(__always)
    func check(_ t: Timestamp, seq: Int) throws(FileError) {
        guard t.milliseconds >= Self.earliestT, t.milliseconds <= Self.latestT else {
            throw FileError(path: path, kind: .rejected(.timeOutOfRange), seq: seq)
        }
    }

    /// Whether `id` is exactly the log's session (by bytes, ``SessionID``).
    @inline(__always)
    func isLogSession(_ id: String) -> Bool {
        if let same = sessionShortKey?.matches(id) { return same }
        return sessionUTF8.withUnsafeBytes { SessionID.same(id, utf8: $0) }
    }
}
