#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to an open file descriptor (standard output, standard error, a
/// file the command line made): the one `write(2)` loop outside ``OpenFile``.
public enum DescriptorWrite {
    /// Writes all of `bytes` to `fd`, again after a signal interrupted the
    /// call (`EINTR`); `nil` when all were written, else the `errno` of the
    /// call that failed (`EIO` when one wrote nothing).
    public static func all(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    /// The system's message for `code` (`strerror`).
    public static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
