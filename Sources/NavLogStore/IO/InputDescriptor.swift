#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or standard input read from start to end (NDJSON inputs, standard
/// input spooled to a file): the one `read(2)` loop outside ``OpenFile``.
final class InputDescriptor {
    /// A system call failed: its name and `errno`.
    struct Failure: Error {
        var operation: String
        var errno: Int32
    }

    private let fd: Int32
    private let owned: Bool
    /// Whether reads may wait for a writer (a pipe, a socket, a terminal: not a regular file).
    let waitsForWriter: Bool

    /// Opens `path` for reading; `-` is standard input. A directory is refused (`EISDIR`).
    convenience init(path: String) throws(Failure) {
        if path == "-" { self.init(fd: 0, owned: false); return }
        let opened = open(path, O_RDONLY | O_CLOEXEC)  // as every descriptor the module opens (OpenFile)
        guard opened >= 0 else { throw Failure(operation: "open", errno: errno) }
        if Self.fileType(opened) == S_IFDIR {
            close(opened)
            throw Failure(operation: "open", errno: EISDIR)
        }
        self.init(fd: opened, owned: true)
    }

    /// Standard input.
    static func standardInput() -> InputDescriptor { InputDescriptor(fd: 0, owned: false) }

    private init(fd: Int32, owned: Bool) {
        self.fd = fd
        self.owned = owned
        waitsForWriter = Self.fileType(fd).map { $0 != S_IFREG } ?? false
    }

    deinit { if owned { close(fd) } }

    /// Reads up to `count` bytes into `buffer`, again after a signal
    /// interrupted the call; the number read, 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        while true {
            let n = systemRead(fd, buffer, count)
            if n >= 0 { return n }
            if errno != EINTR { throw Failure(operation: "read", errno: errno) }
        }
    }

    /// Whether input can be read within `milliseconds` (or the wait was
    /// interrupted: the next read tells).
    func inputComes(within milliseconds: Int) -> Bool {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, Int32(clamping: max(0, milliseconds))) != 0
    }

    private static func fileType(_ fd: Int32) -> mode_t? {
        var info = stat()
        return fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : nil
    }
}

/// `read(2)`, named apart from ``InputDescriptor/read(into:count:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
