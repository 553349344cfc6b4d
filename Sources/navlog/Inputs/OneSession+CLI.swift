import NavLogCore
import NavLogStore

extension OneSession {
    /// Opens the session a command line names (``OneSession/open(_:session:option:form:alongside:messages:)``):
    /// what is noted on the way (a torn tail, damage elsewhere in a store)
    /// and the rejected NDJSON lines go to standard error as they are found.
    static func opened(_ path: String, session: String?, option: String = "--session", form: Form = .events,
                       alongside other: OneSession? = nil) throws -> OneSession {
        let messages = Messages(notice: { message in
            Output.flushStandardOutput()
            Output.error(message)
        }, reject: { Output.error($0.description) })
        do { return try open(path, session: session, option: option, form: form, alongside: other, messages: messages) } catch {
            throw CLIFailure(error)
        }
    }
}

extension CLIFailure {
    /// One session that cannot be read: damage and rejected lines are
    /// exit 1; a missing input, a store without `--session`, I/O trouble exit 2.
    init(_ error: OneSessionError) {
        switch error {
        case .log(let error): self.init(error)
        case .lookup(let error): self.init(error)
        case .ndjson(let error): self.init(error)
        case .rejected, .damaged: self = .no(error.description)
        case .trouble: self = .trouble(error.description)
        }
    }

    /// A store's session that cannot be read: an unknown session, a
    /// missing or unreadable store is exit 2; damage is exit 1.
    init(_ error: SessionLookupError) {
        switch error {
        case .log(let error), .segments(.io(let error)):
            self.init(error)
        case .segments(.corrupt), .segments(.damaged):
            self = .no(error.description)
        default:
            self = .trouble(error.description)
        }
    }
}

/// Runs a library call that reads one session, its failure made the command's.
func reading<T>(_ body: () throws(OneSessionError) -> T) throws -> T {
    do { return try body() } catch { throw CLIFailure(error) }
}
