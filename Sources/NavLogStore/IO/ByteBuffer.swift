// IO/: Files, paths and descriptors: the module's calls on the file system, and FileError, their error.

/// A growable byte buffer that hands out raw pointers: the scratch space the
/// frame encoder writes into and the frame decoder decompresses into, reused
/// across frames so a scan allocates once.
///
/// Growth is always bounded by the caller (``reserve(_:limit:)``), which is
/// how hostile input never causes an unbounded allocation.
///
/// Its stored properties skip Swift's run-time exclusivity checks: a buffer
/// is used by one thread at a time and never handed out `inout`, and the
/// checks cost more than the copying on the hot paths (appending a line).
package final class ByteBuffer {
    /// The start of the storage (valid for ``capacity`` bytes).
    @exclusivity(unchecked) package private(set) var base: UnsafeMutableRawPointer
    /// How many bytes the storage holds.
    @exclusivity(unchecked) package private(set) var capacity: Int
    /// How many bytes are in use, from ``base``.
    @exclusivity(unchecked) package var count: Int = 0

    /// An empty buffer with room for `capacity` bytes.
    package init(capacity: Int = 64 << 10) {
        let capacity = max(capacity, 16)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    /// The bytes in use.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes after ``count``; returns `false`
    /// (and allocates nothing) when that would exceed `limit` bytes in all.
    @discardableResult @inline(__always)
    package func reserve(_ extra: Int, limit: Int = Int.max) -> Bool {
        let needed = count + extra
        guard needed <= limit, extra >= 0 else { return false }
        if needed > capacity { grow(to: needed, limit: limit) }
        return true
    }

    /// Moves the contents to storage of at least `needed` bytes (at most
    /// `limit`, which `needed` is within); kept out of line, so that the
    /// check above costs a comparison where buffers are appended to.
    @inline(never)
    private func grow(to needed: Int, limit: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity = newCapacity > limit / 2 ? limit : newCapacity * 2 }
        newCapacity = max(newCapacity, needed)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends bytes, growing as needed.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends a line and its `\n`, growing as needed.
    package func appendLine(_ line: UnsafeRawBufferPointer) {
        reserve(line.count + 1)
        if line.count > 0 { (base + count).copyMemory(from: line.baseAddress!, byteCount: line.count) }
        (base + count + line.count).storeBytes(of: 0x0A, as: UInt8.self)
        count += line.count + 1
    }

    /// Appends bytes, growing as needed.
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Forgets the contents, keeping the storage.
    package func removeAll() { count = 0 }

    /// Drops the first `n` bytes, moving the rest to the front.
    package func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        if n < count { base.copyMemory(from: base + n, byteCount: count - n) }
        count -= n
    }
}
