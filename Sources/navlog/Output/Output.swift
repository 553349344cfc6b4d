#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Buffered writing to standard output and one-line errors to standard error.
enum Output {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b: [UInt8] = []
        b.reserveCapacity(1 << 16)
        return b
    }()

    /// Appends bytes to standard output (buffered).
    static func write(_ bytes: [UInt8]) {
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
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc_write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                buffer.removeAll(keepingCapacity: true)
                error("cannot write to standard output: \(String(cString: strerror(errno)))")
                exit(2)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
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
        text.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc_write(2, buf.baseAddress! + offset, buf.count - offset)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(1) != 0 }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
