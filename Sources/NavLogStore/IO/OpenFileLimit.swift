#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`ulimit -n`, `RLIMIT_NOFILE`), and
/// the least navlog runs with: below it, the threads that read and write in
/// parallel could fail to start (inside the system's dispatch library, with
/// no word of why), so a command refuses to start, in one line naming the
/// limit, instead.
///
/// ```swift
/// if let problem = OpenFileLimit.problem() { print(problem) }   // "the limit on open files (ulimit -n) is 6; …"
/// ```
public enum OpenFileLimit {
    /// The fewest open files navlog runs with: standard input, output and
    /// error, a store's manifest, lock and segments, a few inputs, and the
    /// descriptors the dispatch library takes for its threads.
    public static let minimum = 16

    /// The soft limit now; `nil` when it cannot be read or is unlimited.
    public static var current: Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)  // an enum case in Glibc's headers
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Why navlog cannot run under the current limit, or `nil` when it can.
    public static func problem() -> String? {
        guard let current, current < minimum else { return nil }
        return "the limit on open files (ulimit -n) is \(current); navlog needs at least \(minimum): raise it (ulimit -n 1024) and run again"
    }
}
