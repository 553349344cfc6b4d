#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One open file, through POSIX: positioned reads and writes, durable sync,
/// truncation and an advisory exclusive lock. Calls on paths are
/// ``FileSystem``'s; reading a stream (standard input, a pipe) is
/// ``NDJSONLineReader``'s.
///
/// Every failure becomes a ``FileError`` naming the call, the path and errno.
final class OpenFile {
    /// The path the file was opened with (for messages).
    let path: String
    private var fd: Int32
    /// Whether this file holds the writer lock (``lockExclusive()``).
    private var locked = false
    /// Data frames decompressed through this file (by ``BlockReader``), for statistics.
    var blocksDecompressed = 0
    /// The offsets of the data frames decompressed (and so checked) through this file.
    var framesDecompressed: Set<Int64> = []
    /// The file's first bytes, read at once by ``preload(upTo:)``; reads
    /// within them are served from memory.
    private var preloaded: ByteBuffer?

    enum Mode {
        /// Read only; never blocks on, nor is blocked by, a writer.
        case read
        /// Read and write; the file is created (empty) when absent.
        case readWrite
        /// Read and write a file that exists (`navlog repair`): never created.
        case update
        /// Write a new file; fails if one exists.
        case createNew
        /// Write a file for the user: created, or emptied when it exists.
        case replace
    }

    init(path: String, mode: Mode) throws(FileError) {
        self.path = path
        let flags: Int32
        switch mode {
        case .read: flags = O_RDONLY
        case .readWrite: flags = O_RDWR | O_CREAT
        case .update: flags = O_RDWR
        case .createNew: flags = O_WRONLY | O_CREAT | O_EXCL
        case .replace: flags = O_WRONLY | O_CREAT | O_TRUNC
        }
        let fd = path.withCString { open($0, flags | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw FileError.io(path: path, call: "open", errno: errno) }
        self.fd = fd
    }

    deinit { close() }

    /// Closes the file (releasing the lock); later calls fail with EBADF.
    func close() {
        if fd >= 0 {
            // Unlocked before closing: a child another thread spawns holds a copy of every
            // descriptor until its exec, and with it the lock, which closing would leave held.
            if locked { _ = flock(fd, LOCK_UN) }
            locked = false
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #elseif canImport(Musl)
            _ = Musl.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
            fd = -1
        }
    }

    /// The file's current size in bytes.
    func size() throws(FileError) -> Int64 {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileError.io(path: path, call: "fstat", errno: errno) }
        return Int64(st.st_size)
    }

    /// Reads the whole file with one read when it is at most `limit` bytes,
    /// so that the reads after it cost no system call. Bytes appended later
    /// are still read from the file; bytes rewritten in place are not seen.
    func preload(upTo limit: Int) throws(FileError) {
        let size = try self.size()
        guard size > 0, size <= Int64(limit) else { return }
        preloaded = nil
        let buffer = ByteBuffer(capacity: Int(size))
        try read(count: Int(size), at: 0, appendingTo: buffer)
        preloaded = buffer
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; fewer only at end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws(FileError) -> Int {
        var done = 0
        if let preloaded, offset >= 0, offset < Int64(preloaded.count) {
            done = min(count, preloaded.count - Int(offset))
            buffer.copyMemory(from: preloaded.base + Int(offset), byteCount: done)
        }
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError.io(path: path, call: "pread", errno: errno, offset: offset + Int64(done))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads `count` bytes at `offset`, or fewer at end of file.
    func read(count: Int, at offset: Int64) throws(FileError) -> [UInt8] {
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        let n = try result.withUnsafeMutableBytes { buf in
            Result { () throws(FileError) in try read(into: buf.baseAddress!, count: count, at: offset) }
        }.get()
        if n < count { result.removeLast(count - n) }
        return result
    }

    /// Appends `count` bytes read at `offset` to `buffer`; returns how many were read.
    @discardableResult
    func read(count: Int, at offset: Int64, appendingTo buffer: ByteBuffer) throws(FileError) -> Int {
        buffer.reserve(count)
        let n = try read(into: buffer.base + buffer.count, count: count, at: offset)
        buffer.count += n
        return n
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(FileError) {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError.io(path: path, call: "pwrite", errno: errno, offset: offset + Int64(done))
            }
            done += n
        }
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: Int64) throws(FileError) {
        try bytes.withUnsafeBytes { buf in
            Result { () throws(FileError) in try write(buf, at: offset) }
        }.get()
    }

    /// Makes everything written so far durable: on return it survives a
    /// crash or power loss (`fdatasync` on Linux, `F_FULLFSYNC` on Darwin).
    func sync() throws(FileError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        guard fsync(fd) == 0 else { throw FileError.io(path: path, call: "fsync", errno: errno) }
        #else
        while fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw FileError.io(path: path, call: "fdatasync", errno: errno)
        }
        #endif
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int64) throws(FileError) {
        while ftruncate(fd, off_t(length)) != 0 {
            if errno == EINTR { continue }
            throw FileError.io(path: path, call: "ftruncate", errno: errno, offset: length)
        }
    }

    /// Takes the exclusive writer lock without waiting (`flock`); a second
    /// writer, in this process or another, gets ``FileError/Kind/locked``.
    /// Readers take no lock and are never blocked.
    func lockExclusive() throws(FileError) {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK {
                throw FileError(path: path, kind: .locked)
            }
            throw FileError.io(path: path, call: "flock", errno: errno)
        }
        locked = true
    }

    /// Makes the directory entry of `path` durable (after creating a file).
    static func syncDirectory(containing path: String) throws(FileError) {
        var dir = path
        if let slash = dir.lastIndex(of: "/") {
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
        } else {
            dir = "."
        }
        let directory = try OpenFile(path: dir, mode: .read)
        #if canImport(Darwin)
        _ = fsync(directory.fd)
        #else
        guard fsync(directory.fd) == 0 else { throw FileError.io(path: dir, call: "fsync", errno: errno) }
        #endif
    }

    /// Whether a file exists at `path`.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return path.withCString { stat($0, &st) } == 0
    }

    /// Milliseconds of a monotonic clock (for durability and seal intervals).
    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// The C library's message for an errno value.
func errnoDescription(_ code: Int32) -> String {
    guard let cString = strerror(code) else { return "errno \(code)" }
    return String(cString: cString)
}
