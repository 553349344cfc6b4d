#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import NavLogCore

/// Reads NDJSON from a file or standard input one line at a time, in bounded
/// memory: a line longer than the limit is passed over and reported by its
/// length, never buffered whole.
///
/// ```swift
/// let reader = try NDJSONLineReader(path: "events.ndjson")
/// try reader.forEachLine { line in … }
/// ```
public final class NDJSONLineReader {
    /// One line handed to the caller. `bytes` is valid only during the call.
    public struct Line {
        /// 1-based line number in the input.
        public var number: Int
        /// The line without its `\n`; empty when ``overLimitBytes`` is set.
        public var bytes: UnsafeRawBufferPointer
        /// The line's length when it was over the limit and skipped.
        public var overLimitBytes: Int?
        /// Whether the line holds only JSON whitespace (skipped).
        public var isBlank: Bool { overLimitBytes == nil && NDJSONLineReader.isBlank(bytes) }
    }

    /// Whether a line's bytes are only JSON whitespace (a blank line, skipped).
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The path as given (`-` for standard input).
    public let path: String
    private let input: InputDescriptor
    private let limit: Int
    private let chunk: Int
    /// Whether reads may wait for a writer (a pipe, a socket, a terminal: not a regular file).
    private var waitsForWriter: Bool { input.waitsForWriter }

    /// Asked while the reader waits for a quiet writer (``forEachLine(wait:paused:atBoundary:_:)``).
    private let shouldStop: () -> Bool

    /// Opens `path` for reading; `-` reads standard input. `shouldStop` is
    /// asked while a read waits for a writer: `true` ends the reading there.
    public init(path: String, maxLineBytes: Int = EventParser.maxLineBytes,
                shouldStop: @escaping () -> Bool = { false }) throws(NDJSONReadError) {
        self.path = path
        self.shouldStop = shouldStop
        self.limit = maxLineBytes
        self.chunk = 1 << 20
        do { input = try InputDescriptor(path: path) } catch {
            throw NDJSONReadError(path: path, operation: error.operation, errno: error.errno)
        }
    }

    /// Calls `body` for every line, in order (the last needs no `\n`).
    public func forEachLine<E: Error>(_ body: (Line) throws(E) -> Void) throws(NDJSONFailure<E>) {
        let buffer = ByteBuffer(capacity: bufferCapacity)
        _ = try forEachLine(readingInto: { buffer }, body)
    }

    /// ``forEachLine(_:)``, told when the input pauses and asked to stop. When
    /// the input is a pipe or a terminal (whose reads wait for a writer),
    /// `wait` says before each read how many milliseconds it may wait
    /// (`nil`: as long as it takes); when that passes with no input,
    /// `paused` is called (what a collector's pipe does between bursts), and
    /// the read then waits as long as it takes. While it waits, the reader's
    /// `shouldStop` is asked before every read and at least every
    /// ``stopCheckMilliseconds``: once it answers `true` where `atBoundary`
    /// does too (between records: a CSV record may span lines), reading ends
    /// there, so a writer that goes quiet cannot keep a stop waiting.
    ///
    /// - Returns: `true` when reading ended so, before the end of the input.
    func forEachLine<E: Error>(wait: () -> Int?, paused: () throws(E) -> Void, atBoundary: () -> Bool,
                               _ body: (Line) throws(E) -> Void) throws(NDJSONFailure<E>) -> Bool {
        let buffer = ByteBuffer(capacity: bufferCapacity)
        return try forEachLine(readingInto: { buffer }, wait: wait, paused: paused, atBoundary: atBoundary, body)
    }

    /// How long a wait for a quiet writer lasts between two questions whether to stop.
    static let stopCheckMilliseconds = 100

    /// The capacity a buffer given to ``forEachLine(readingInto:wait:paused:atBoundary:_:)`` must have.
    var bufferCapacity: Int { limit + chunk + 1 }

    /// ``forEachLine(_:)``, reading into buffers that `nextBuffer` gives
    /// (each of ``bufferCapacity`` bytes): it is asked for one before every
    /// read, and the part of a line already read moves to the front of the
    /// one it gives. A line's bytes are in the buffer last given before it
    /// was delivered, and stay there as long as the caller does not give
    /// that buffer again; a caller that gives the same buffer every time has
    /// the bytes only during `body`.
    @inline(__always)
    func forEachLine<E: Error>(readingInto nextBuffer: () -> ByteBuffer, wait: () -> Int? = { nil },
                               paused: () throws(E) -> Void = {}, atBoundary: () -> Bool = { true },
                               _ body: (Line) throws(E) -> Void) throws(NDJSONFailure<E>) -> Bool {
        var buffer = nextBuffer()
        precondition(buffer.capacity >= bufferCapacity)
        var base = buffer.base
        var filled = 0  // bytes in buffer
        var start = 0  // start of the current line in buffer
        var number = 0
        var skipping: Int? = nil  // length so far of an over-limit line being skipped
        var eof = false
        var classified = false  // whether the first bytes were looked at (InputContent)
        var pausedSinceInput = false  // whether `paused` was called and no input came since
        while true {
            // Hand out every complete line in the buffer.
            var scanFrom = start
            while scanFrom < filled {
                guard let nl = memchr(base + scanFrom, 0x0A, filled - scanFrom) else { break }
                let end = base.distance(to: UnsafeMutableRawPointer(nl))
                number += 1
                if let skipped = skipping {
                    skipping = nil
                    try deliver(body, Line(number: number, bytes: UnsafeRawBufferPointer(start: nil, count: 0),
                                           overLimitBytes: skipped + (end - start)))
                } else if end - start > limit {
                    try deliver(body, Line(number: number, bytes: UnsafeRawBufferPointer(start: nil, count: 0),
                                           overLimitBytes: end - start))
                } else {
                    try deliver(body, Line(number: number, bytes: UnsafeRawBufferPointer(start: base + start, count: end - start),
                                           overLimitBytes: nil))
                }
                start = end + 1
                scanFrom = start
            }
            if eof {
                if start < filled || skipping != nil {
                    number += 1
                    let length = filled - start + (skipping ?? 0)
                    if skipping != nil || length > limit {
                        try deliver(body, Line(number: number, bytes: UnsafeRawBufferPointer(start: nil, count: 0),
                                               overLimitBytes: length))
                    } else {
                        try deliver(body, Line(number: number, bytes: UnsafeRawBufferPointer(start: base + start, count: length),
                                               overLimitBytes: nil))
                    }
                }
                return false
            }
            // Keep the partial line (in the next buffer); drop it if it is
            // already over the limit.
            let partial = filled - start
            let next = nextBuffer()
            precondition(next.capacity >= bufferCapacity)
            if partial > limit {
                skipping = (skipping ?? 0) + partial
                filled = 0
            } else {
                if partial > 0 && (next !== buffer || start > 0) { memmove(next.base, base + start, partial) }
                filled = partial
            }
            buffer = next
            base = buffer.base
            start = 0
            let room = bufferCapacity - filled
            while waitsForWriter {
                if shouldStop(), atBoundary() { return true }
                let due = pausedSinceInput ? nil : wait()
                if let due, due <= 0 {
                    do { try paused() } catch { throw .body(error) }
                    pausedSinceInput = true
                    continue
                }
                if input.inputComes(within: min(due ?? Self.stopCheckMilliseconds, Self.stopCheckMilliseconds)) { break }
            }
            let n: Int
            do { n = try input.read(into: base + filled, count: min(room, chunk)) } catch {
                throw .read(NDJSONReadError(path: path, operation: error.operation, errno: error.errno))
            }
            if n > 0 { pausedSinceInput = false }
            if n == 0 { eof = true }
            if !classified && n > 0 {
                classified = true
                switch InputContent(prefix: UnsafeRawBufferPointer(start: base + filled, count: n)) {
                case .text: break
                case .navlog: throw .read(NDJSONReadError(path: path, problem: .navlog))
                case .binary(let offset): throw .read(NDJSONReadError(path: path, problem: .binary(offset: offset)))
                }
            }
            filled += n
        }
    }

    /// Calls `body` with each line of `bytes` held in memory (a log's
    /// block, an upload's body), numbered on from `number`, without its
    /// `\n`; the last needs none. Returns the last line's number.
    @discardableResult
    static func forEachLine<E: Error>(in bytes: UnsafeRawBufferPointer, after number: Int = 0,
                                      _ body: (_ number: Int, _ line: UnsafeRawBufferPointer, _ start: Int) throws(E) -> Void) throws(E) -> Int {
        var number = number
        var start = 0
        while start < bytes.count {
            let end = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start)
                .map { bytes.baseAddress!.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
            number += 1
            try body(number, UnsafeRawBufferPointer(rebasing: bytes[start..<end]), start)
            start = end + 1
        }
        return number
    }

    private func deliver<E: Error>(_ body: (Line) throws(E) -> Void, _ line: Line) throws(NDJSONFailure<E>) {
        do { try body(line) } catch { throw .body(error) }
    }
}

/// Why reading NDJSON stopped: the input failed, or the caller's body threw.
public enum NDJSONFailure<E: Error>: Error {
    case read(NDJSONReadError)
    case body(E)
}

/// An input file could not be opened or read, or is not text.
public struct NDJSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var problem: Problem

    /// What is wrong with the input.
    public enum Problem: Hashable, Sendable {
        /// A system call failed.
        case system(operation: String, errno: Int32)
        /// Binary data (``InputContent/binary(offset:)``).
        case binary(offset: Int)
        /// A `.navlog` log where NDJSON is read.
        case navlog

        /// The problem as text; `fromStandardInput` when the input is `-`.
        public func text(fromStandardInput: Bool) -> String {
            switch self {
            case .system(let operation, let code): "cannot \(operation): \(String(cString: strerror(code)))"
            case .binary(let offset): "not a navlog file and not NDJSON (binary data at byte \(offset))"
            case .navlog where fromStandardInput:
                "a navlog log, which cannot be read from standard input: give its path (or pipe 'navlog cat LOG' for NDJSON)"
            case .navlog: "a navlog log, not NDJSON: this reads NDJSON (pipe 'navlog cat LOG' into it)"
            }
        }
    }

    public init(path: String, operation: String, errno: Int32) {
        self.init(path: path, problem: .system(operation: operation, errno: errno))
    }

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        "\(path == "-" ? "<stdin>" : path): \(problem.text(fromStandardInput: path == "-"))"
    }
}

extension FileError {
    /// An NDJSON input's failure, as the error of the command that read it.
    public init(reading error: NDJSONReadError) {
        switch error.problem {
        case .system(let operation, let code): self.init(path: error.path, kind: .io(call: operation, errno: code))
        default: self.init(path: error.path, kind: .input(error.problem))
        }
    }
}
