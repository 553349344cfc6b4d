#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (`SIGINT`) and `SIGTERM`, held back while a command writes a
/// store, so that it stops between chunks of input, closes its logs, keeps
/// its rejects and says what it stored, instead of dying halfway.
///
/// The signals are blocked in the calling thread, and so in every thread it
/// starts afterwards, and asked for with `sigpending`: no handler runs on
/// some other thread, so nothing races. A second Ctrl-C changes nothing (the
/// stop is already under way, and takes a moment); `SIGQUIT` (Ctrl-\) still
/// ends the process at once.
enum StopSignals {
    private static let held: [Int32] = [SIGINT, SIGTERM]

    /// Blocks the signals; call before starting any thread.
    static func hold() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in held { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// The held signal that has arrived, if any.
    static func pending() -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        guard sigpending(&set) == 0 else { return nil }
        return held.first { sigismember(&set, $0) == 1 }
    }

    /// The exit status of a command stopped by `signal`: 128 + its number,
    /// as the shell reports a process the signal ended.
    static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }
}
