#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// Buffered writing to standard output and one-line errors to standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b: [UInt8] = []
        b.reserveCapacity(1 << 16)
        return b
    }()

    /// Appends bytes to standard output (buffered; a large piece, such as
    /// an export's part, is written as it is, not copied into the buffer).
    static func write(_ bytes: [UInt8]) {
        guard bytes.count < 1 << 16 else {
            flushStandardOutput()
            bytes.withUnsafeBytes { writeNow($0) }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flushStandardOutput() }
    }

    /// Appends text to standard output (buffered).
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 16 { flushStandardOutput() }
    }

    /// Appends a line to standard output (buffered).
    static func line(_ text: String) {
        write(text)
        buffer.append(0x0A)
    }

    /// Writes what is buffered. A closed pipe (`navlog cat … | head`) ends
    /// the process quietly, as with other Unix tools.
    static func flushStandardOutput() {
        buffer.withUnsafeBytes { writeNow($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeNow(_ bytes: UnsafeRawBufferPointer) {
        if let failure = DescriptorWrite.all(bytes, to: 1) {
            if failure == EPIPE { exit(0) }
            error("cannot write to standard output: \(DescriptorWrite.reason(failure))")
            exit(2)
        }
    }

    /// Prints `navlog: <message>` as one line on standard error; what is
    /// left of control characters in it (from a session id, a path, a
    /// rejected line's value) is escaped, so that it cannot drive the terminal.
    static func error(_ message: String) {
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        writeStandardError("navlog: " + ReadableText.escaped(oneLine) + "\n")
    }

    /// Prints a message as it is on standard error (argument-parser usage text).
    static func errorBlock(_ message: String) {
        writeStandardError(message.hasSuffix("\n") ? message : message + "\n")
    }

    private static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = DescriptorWrite.all(UnsafeRawBufferPointer($0), to: 2) }
    }

    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(1) != 0 }
}
