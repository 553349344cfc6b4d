/// Turns the records of a foreign format into navlog ``Event``s, one record
/// at a time (schemas/imports.md).
///
/// A converter is an incremental state machine: it keeps only what the
/// sessions still open need (the last snapshot of a session, whether a
/// session's start was written, …) and hands out events as soon as they are
/// known, so memory stays bounded however long the input is.
///
/// ```swift
/// var converter = GA4Converter()
/// var events: [Event] = []
/// for (number, line) in lines.enumerated() {
///     do { try converter.convert(line, record: number + 1, into: &events) }
///     catch { print("line \(number + 1): \(error)") }   // nothing appended
///     // store `events`, then empty it
/// }
/// converter.finish(into: &events)
/// ```
///
/// Events come out with `seq` 0 (the log's writer assigns it). A record is
/// converted whole or rejected with an ``EventParseError`` whose field names
/// are the foreign format's; a rejected record appends nothing and leaves the
/// converter as it was.
public protocol ImportConverter {
    /// Converts one record (an NDJSON line's bytes, without its newline),
    /// appending the events it yields to `events`.
    mutating func convert(_ record: UnsafeRawBufferPointer, record number: Int, into events: inout [Event]) throws(EventParseError)

    /// Called after the last record: appends whatever the open sessions
    /// still owe (nothing, for the formats navlog reads today) and forgets them.
    mutating func finish(into events: inout [Event])
}

extension ImportConverter {
    /// Converts one record given as bytes.
    public mutating func convert(_ record: [UInt8], record number: Int, into events: inout [Event]) throws(EventParseError) {
        try record.withUnsafeBytes { buf in
            Result { () throws(EventParseError) in try convert(buf, record: number, into: &events) }
        }.get()
    }

    /// Converts one record given as a string.
    public mutating func convert(_ record: String, record number: Int, into events: inout [Event]) throws(EventParseError) {
        try convert(Array(record.utf8), record: number, into: &events)
    }
}
