import NavLogStore

extension SessionStream {
    /// The sessions of the inputs `funnel`, `paths` and `export` name: torn
    /// tails and the first ``OneSession/rejectsShown`` rejected lines of
    /// each file are printed on standard error as they are met.
    init(commandLine inputs: [String]) throws(SessionStreamError) {
        try self.init(paths: inputs) { note in
            switch note {
            case .tornTail(let path, let damage):
                Output.error("\(path): \(damage)")
            case .rejected(let line, let ordinal):
                if ordinal <= OneSession.rejectsShown { Output.error(line.description) }
            }
        }
    }
}

extension CLIFailure {
    /// A failure reading sessions: damaged or rejected input is exit 1,
    /// trouble reading it exit 2 (a log's error as ``init(_:)-FileError``).
    init(_ error: SessionStreamError) {
        switch error {
        case .log(let error):
            self.init(error)
        case .rejectedLines(_, let count) where count > OneSession.rejectsShown:
            self = .no("\(error) (\(count - OneSession.rejectsShown) not shown)")
        default:
            self = error.isRejection ? .no(error.description) : .trouble(error.description)
        }
    }
}
