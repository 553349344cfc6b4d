import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process running on a real pseudo-terminal (`posix_openpt`): its
/// standard input, output and error are the terminal, the test types into it
/// and reads what it draws. Everything waits with a deadline; nothing sleeps
/// longer than a few milliseconds at a time.
final class PseudoTerminal {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How the process ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    let pid: pid_t
    /// The controlling side, which the test reads and writes.
    private let master: Int32
    /// The process's side, kept open here to read its settings (termios).
    private let slave: Int32
    /// Every byte the process wrote.
    private(set) var output: [UInt8] = []
    /// Where the next ``nextFrame(where:timeout:)`` starts looking.
    private var mark = 0
    private var ending: Ending?

    /// The terminal's settings before the process started.
    let initialSettings: termios

    /// Starts `executable` with `args` on a new terminal of `rows` × `columns`.
    init(_ executable: String, _ args: [String], environment: [String: String] = [:],
         rows: UInt16 = 40, columns: UInt16 = 160) throws {
        master = PTY.openpt(O_RDWR | O_NOCTTY | PTY.closeOnExec)
        guard master >= 0 else { throw Failure(description: "posix_openpt: \(Self.reason())") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        guard PTY.grantpt(master) == 0, PTY.unlockpt(master) == 0 else {
            close(master)
            throw Failure(description: "grantpt/unlockpt: \(Self.reason())")
        }
        guard let name = PTY.name(master) else {
            close(master)
            throw Failure(description: "ptsname: \(Self.reason())")
        }
        slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "open \(name): \(Self.reason())")
        }
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        initialSettings = settings

        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, target) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals the test process ignores (SIGPIPE) would stay ignored across exec.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Nor may it inherit the test thread's blocked signals.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var variables = ProcessInfo.processInfo.environment
        variables["TERM"] = "xterm-256color"
        variables.removeValue(forKey: "NO_COLOR")
        variables.merge(environment) { $1 }
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            close(slave)
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit {
        if ending == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        close(master)
        close(slave)
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// Changes the window size and tells the process, as a terminal
    /// emulator would (the kernel signals only a terminal's foreground
    /// process group, and the process is not one here).
    func resize(rows: UInt16, columns: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        kill(pid, SIGWINCH)
    }

    // MARK: Typing

    /// Types `text` (keys, escape sequences, control characters).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "write to the terminal: \(Self.reason())")
            }
            offset += n
        }
    }

    // MARK: Reading

    /// Reads what is available within `milliseconds`; `false` when nothing came.
    @discardableResult
    private func pump(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress!, $0.count) }
        guard n > 0 else { return false }
        output.append(contentsOf: buffer[0..<n])
        return true
    }

    /// The start of every frame the stepper draws, and its end (the cursor
    /// is hidden, or shown while a prompt is open).
    static let frameStart = Array("\u{1B}[H".utf8)
    static let frameEnds = [Array("\u{1B}[J\u{1B}[?25l".utf8), Array("\u{1B}[J\u{1B}[?25h".utf8)]

    /// Waits for the next complete frame whose text (without escape
    /// sequences) satisfies `accept`, skipping earlier frames, and returns
    /// that text. Output before it is consumed.
    @discardableResult
    func nextFrame(timeout: Double = 10, where accept: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var searched = mark
        while true {
            while let start = Self.find(Self.frameStart, in: output, from: searched) {
                let candidates = Self.frameEnds.compactMap { end in
                    Self.find(end, in: output, from: start).map { $0 + end.count }
                }
                guard let end = candidates.min() else { break }
                let text = Self.plain(output[start..<end])
                searched = end
                if accept(text) {
                    mark = end
                    return text
                }
            }
            if Date() >= deadline {
                throw Failure(description: "no such frame within \(timeout)s; the last output was:\n"
                              + Self.plain(output[max(mark, output.count - 4000)...]))
            }
            pump(milliseconds: 20)
        }
    }

    /// Waits for the next frame that contains every one of `texts`.
    @discardableResult
    func nextFrame(containing texts: String..., timeout: Double = 10) throws -> String {
        try nextFrame(timeout: timeout) { frame in texts.allSatisfy { frame.contains($0) } }
    }

    /// Waits for the process to end, reading its output meanwhile; kills it
    /// after `timeout`.
    func waitForExit(timeout: Double = 10) throws -> Ending {
        if let ending { return ending }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                ending = .signaled(SIGKILL)
                throw Failure(description: "still running after \(timeout)s; killed")
            }
            pump(milliseconds: 5)
        }
        while pump(milliseconds: 20) {}
        let ended: Ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        ending = ended
        return ended
    }

    /// The terminal's settings now.
    var settings: termios {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings
    }

    /// Waits until the terminal's settings satisfy `condition`.
    func waitForSettings(timeout: Double = 10, _ condition: (termios) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(settings) {
            if Date() >= deadline { throw Failure(description: "the terminal's settings did not change within \(timeout)s") }
            pump(milliseconds: 5)
        }
    }

    /// What was written after the last frame taken, without escape sequences.
    var textAfterLastFrame: String { Self.plain(output[mark...]) }

    /// Everything written, as text with escape sequences.
    var rawOutput: String { String(decoding: output, as: UTF8.self) }

    // MARK: Bytes

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Text without escape sequences and carriage returns.
    static func plain(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == 0x1B, i + 1 < bytes.endIndex {
                if bytes[i + 1] == UInt8(ascii: "[") {
                    // CSI: parameters and intermediates, then a final byte 0x40–0x7E.
                    i += 2
                    while i < bytes.endIndex, !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                    i += 1
                } else {
                    i += 2
                }
                continue
            }
            if byte != 0x0D { out.append(byte) }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension termios {
    /// Whether the terminal is in its cooked mode: lines edited and echoed.
    var isCooked: Bool {
        c_lflag & tcflag_t(ICANON) != 0 && c_lflag & tcflag_t(ECHO) != 0
    }

    /// The flags that raw mode changes, to compare settings before and after.
    var modeFlags: [UInt64] {
        [UInt64(c_lflag), UInt64(c_iflag), UInt64(c_oflag)]
    }
}

/// The pseudo-terminal calls. glibc declares them only for XSI builds,
/// which the Glibc module is not, so on Linux they are looked up by name.
private enum PTY {
    #if os(Linux)
    typealias Call = @convention(c) (Int32) -> Int32
    typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static func function<T>(_ name: String, as type: T.Type) -> T {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("no \(name) in the C library") }
        return unsafeBitCast(symbol, to: type)
    }

    static let closeOnExec = O_CLOEXEC
    static func openpt(_ flags: Int32) -> Int32 { function("posix_openpt", as: Call.self)(flags) }
    static func grantpt(_ fd: Int32) -> Int32 { function("grantpt", as: Call.self)(fd) }
    static func unlockpt(_ fd: Int32) -> Int32 { function("unlockpt", as: Call.self)(fd) }
    static func name(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard function("ptsname_r", as: NameCall.self)(fd, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    #else
    static let closeOnExec: Int32 = 0  // posix_openpt takes no O_CLOEXEC here; fcntl sets it
    static func openpt(_ flags: Int32) -> Int32 { posix_openpt(flags) }
    static func grantpt(_ fd: Int32) -> Int32 { Darwin.grantpt(fd) }
    static func unlockpt(_ fd: Int32) -> Int32 { Darwin.unlockpt(fd) }
    private static let nameLock = NSLock()
    static func name(_ fd: Int32) -> String? { nameLock.withLock { ptsname(fd).map { String(cString: $0) } } }
    #endif
}
