#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the running program's executable lies: what resources installed
/// beside it (SwiftPM's `*.resources` / `*.bundle` folders) are found from.
public enum ExecutablePath {
    /// The directory of the running executable (links resolved), or `nil`
    /// when the system does not say.
    public static var directory: String? {
        guard let path = executable, let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Replaces this process with the program at `path` (`execv`), given
    /// `arguments` after its name: it returns only when that fails, with the `errno`.
    public static func replaceProcess(with path: String, arguments: [String]) -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let failure = errno
        for pointer in argv { free(pointer) }
        return failure
    }

    /// The running executable's path.
    private static var executable: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if canImport(Darwin)
        var size = UInt32(buffer.count)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(buffer, &resolved) != nil else { return String(cString: buffer) }
        return String(cString: resolved)
        #else
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
