#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies the program at `source` to `destination` (mode 0755) for a test
/// that runs it from another directory. Both files are opened close-on-exec:
/// a copy whose write descriptor a child started meanwhile by another test
/// inherited could not be run ("Text file busy") while that child lives.
public func copyExecutable(_ source: String, to destination: String) throws(TemporaryDirectory.Failure) {
    func failure(_ what: String) -> TemporaryDirectory.Failure {
        TemporaryDirectory.Failure(description: "cannot copy \(source) to \(destination): \(what): \(String(cString: strerror(errno)))")
    }
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw failure("open") }
    defer { close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard output >= 0 else { throw failure("create") }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count == 0 { return }
        guard count > 0 || errno == EINTR else { throw failure("read") }
        var written = 0
        while written < count {
            let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
            guard step > 0 || errno == EINTR else { throw failure("write") }
            written += max(step, 0)
        }
    }
}
