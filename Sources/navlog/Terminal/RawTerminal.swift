// Terminal/: The terminal: raw mode, keys, the replay stepper, stop signals.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal of `navlog replay --interactive`, in raw mode on a full
/// screen of its own. The only caller of termios, `ioctl` and signal
/// handlers in navlog.
///
/// Raw mode: keys arrive one at a time, unechoed, Ctrl-C as a byte; output
/// processing stays on (a line feed still starts a new line). The screen:
/// the alternate screen, cursor hidden, no line wrapping.
///
/// The terminal is put back as it was by ``restore()`` (also on `deinit`),
/// on any `exit`, and on SIGINT, SIGTERM and SIGHUP, after which the signal
/// ends the process as it would have. Ctrl-Z (``suspend()``) and SIGTSTP put
/// it back too before the process stops; on SIGCONT raw mode and the screen
/// come back, and ``nextKey()`` answers ``TerminalKey/resize`` so that the
/// caller draws its frame again.
final class RawTerminal {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var pending: [UInt8] = []
    private var active = true

    /// Enters raw mode on standard input and the alternate screen on standard output.
    init() throws(Failure) {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else {
            throw Failure(description: "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        TerminalRestore.saved.pointee = original
        TerminalRestore.raw.pointee = raw
        TerminalRestore.install()
        Output.flushStandardOutput()
        guard TerminalRestore.enterNow() else {
            TerminalRestore.uninstall()
            throw Failure(description: "cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
        }
    }

    /// Ctrl-Z: stops the process as the shell's job control would, the
    /// terminal put back first; returns once continued, in raw mode again.
    func suspend() {
        Output.flushStandardOutput()
        raise(SIGTSTP)
    }

    deinit { restore() }

    /// Leaves the alternate screen and raw mode; the terminal is as it was.
    /// Safe to call more than once.
    func restore() {
        guard active else { return }
        active = false
        Output.flushStandardOutput()
        TerminalRestore.restoreNow()
        TerminalRestore.uninstall()
    }

    /// The window size; 24 × 80 when the terminal does not say.
    var size: (rows: Int, columns: Int) {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
            return (Int(size.ws_row), Int(size.ws_col))
        }
        return (24, 80)
    }

    /// Writes a frame and flushes it.
    func draw(_ text: String) {
        Output.write(text)
        Output.flushStandardOutput()
    }

    /// The next key, waiting for it; ``TerminalKey/resize`` when the window
    /// changed size; `nil` at the end of input or on a read error.
    func nextKey() -> TerminalKey? {
        while true {
            if let key = TerminalKey.decode(&pending, final: false) { return key }
            if !pending.isEmpty, !waitForInput(milliseconds: 50) {
                // The start of an escape sequence and nothing more: take it as it is.
                return TerminalKey.decode(&pending, final: true)
            }
            if TerminalRestore.resized != 0 {
                TerminalRestore.resized = 0
                return .resize
            }
            if !waitForInput(milliseconds: -1) {
                if errno == EINTR { continue }  // a resize, seen at the top of the loop
                return nil
            }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if n == 0 { return pending.isEmpty ? nil : TerminalKey.decode(&pending, final: true) }
            pending.append(contentsOf: buffer[0..<n])
        }
    }

    /// Whether standard input has bytes within the time (`-1`: no limit);
    /// `false` also when a signal interrupted the wait (`errno` is `EINTR`).
    private func waitForInput(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        errno = 0
        return poll(&descriptor, 1, milliseconds) > 0
    }
}

/// What signal handlers and `atexit` need to put the terminal back: plain
/// globals, since a C handler captures nothing. Touched only by the thread
/// that runs the stepper and by the handlers it installs.
private enum TerminalRestore {
    /// The settings before raw mode, in a heap cell of its own: a global
    /// `termios` is laid out shorter than the 60 bytes written into it by
    /// Swift 6.3 on Linux (AddressSanitizer: global-buffer-overflow).
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = {
        let cell = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        cell.initialize(to: termios())
        return cell
    }()
    /// The raw-mode settings, to enter again after a suspension.
    nonisolated(unsafe) static let raw: UnsafeMutablePointer<termios> = {
        let cell = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        cell.initialize(to: termios())
        return cell
    }()
    /// 1 while raw mode is on.
    nonisolated(unsafe) static var active: Int32 = 0
    /// Set by SIGWINCH.
    nonisolated(unsafe) static var resized: Int32 = 0
    nonisolated(unsafe) static var installed = false
    nonisolated(unsafe) static var previous: [Int32: SignalHandler?] = [:]

    static let enterScreen: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l"
    static let leaveScreen: StaticString = "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
    static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    nonisolated(unsafe) static var exitHandlerRegistered = false

    static func install() {
        guard !installed else { return }
        installed = true
        // Globals are initialised on first use, which must not happen inside a handler.
        active = 0
        resized = 0
        _ = leaveScreen.utf8CodeUnitCount
        _ = enterScreen.utf8CodeUnitCount
        _ = raw
        for signal in endingSignals { previous[signal] = Glibc_signal(signal, onEndingSignal) }
        previous[SIGWINCH] = Glibc_signal(SIGWINCH, onResize)
        previous[SIGTSTP] = Glibc_signal(SIGTSTP, onSuspend)
        if !exitHandlerRegistered {
            exitHandlerRegistered = true
            atexit(onExit)
        }
    }

    static func uninstall() {
        guard installed else { return }
        installed = false
        for (signal, handler) in previous { _ = Glibc_signal(signal, handler) }
        previous = [:]
    }

    /// Enters raw mode and the screen; async-signal-safe (tcsetattr and
    /// write only). `false` when the terminal refused raw mode.
    @discardableResult
    static func enterNow() -> Bool {
        guard tcsetattr(0, TCSAFLUSH, raw) == 0 else { return false }
        active = 1
        _ = write(1, enterScreen.utf8Start, enterScreen.utf8CodeUnitCount)
        return true
    }

    /// Puts the terminal back; async-signal-safe (tcsetattr and write only).
    static func restoreNow() {
        guard active != 0 else { return }
        active = 0
        _ = write(1, leaveScreen.utf8Start, leaveScreen.utf8CodeUnitCount)
        _ = tcsetattr(0, TCSAFLUSH, saved)
    }
}

private func onEndingSignal(_ signal: Int32) {
    TerminalRestore.restoreNow()
    _ = Glibc_signal(signal, SIG_DFL)
    raise(signal)
}

private func onResize(_ signal: Int32) {
    TerminalRestore.resized = 1
}

/// SIGTSTP (and Ctrl-Z, raised): the terminal put back, then the process
/// stops right here, as with the default action; once continued, raw mode
/// and the screen come back and the next key is a redraw.
private func onSuspend(_ signal: Int32) {
    let wasActive = TerminalRestore.active != 0
    TerminalRestore.restoreNow()
    _ = Glibc_signal(SIGTSTP, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTSTP)
    // Blocked while its handler runs: let it through, so that it stops us now.
    _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    _ = raise(SIGTSTP)
    // Continued.
    _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    _ = Glibc_signal(SIGTSTP, onSuspend)
    if wasActive { TerminalRestore.enterNow() }
    TerminalRestore.resized = 1
}

private func onExit() {
    TerminalRestore.restoreNow()
}

/// A C signal handler.
private typealias SignalHandler = @convention(c) (Int32) -> Void

/// The C library's `signal`.
private func Glibc_signal(_ signal: Int32, _ handler: SignalHandler?) -> SignalHandler? {
    #if canImport(Glibc)
    Glibc.signal(signal, handler)
    #else
    Darwin.signal(signal, handler)
    #endif
}
