#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// `navlog cat LOG --follow`, `navlog cat STORE --session ID --follow`: the
/// events stored so far, then those a writer commits, each once and in seq
/// order, until Ctrl-C or SIGTERM (exit 0) or, with `--to N`, until the
/// session passes seq N. A log, or a session of a store, that does not
/// exist yet is refused as without `--follow` (exit 2), not waited for.
extension CatCommand {
    func runFollowing() throws {
        // Blocked before any thread starts, and asked for between polls.
        StopSignals.hold()
        let opened = try OneSession.opened(log, session: session, form: .logOrStore)
        let follower = try reading { () throws(OneSessionError) in try opened.follower(filter) }
        while true {
            let passedTo: Bool
            do { passedTo = try follower.next { Output.write(bytes: $0) } } catch {
                Output.flushStandardOutput()
                throw CLIFailure(error)
            }
            Output.flushStandardOutput()
            if passedTo || StopSignals.pending() != nil { return }
            usleep(OneSession.Follower.pollMicroseconds)
            if StopSignals.pending() != nil { return }
        }
    }
}
