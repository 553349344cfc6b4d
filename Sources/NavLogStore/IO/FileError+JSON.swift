import NavLogCore

extension FileError {
    /// The kind's name in JSON output: `corrupt`, `notANavlog`,
    /// `unsupportedVersion` (damage), `io`, `locked`, `rejected`, `closed`,
    /// `compression`, `input` (trouble).
    public var kindName: String {
        switch kind {
        case .io: "io"
        case .locked: "locked"
        case .notANavlog: "notANavlog"
        case .unsupportedVersion: "unsupportedVersion"
        case .corrupt: "corrupt"
        case .rejected: "rejected"
        case .closed: "closed"
        case .compression: "compression"
        case .input: "input"
        }
    }

    /// The error as a JSON object: what (`kind`, `reason`) and where
    /// (`offset`, `frame`, `seq`, each `null` when it does not apply).
    public var jsonValue: JSONValue {
        .object([
            "kind": .string(kindName),
            "reason": .string(reason),
            "offset": .integer(offset),
            "frame": .integer(frame),
            "seq": .integer(seq),
        ])
    }
}

extension Damage where Kind == LogFault {
    /// A log's problem as a JSON object: the error it stands for (``FileError/jsonValue``).
    public var jsonValue: JSONValue { FileError(self).jsonValue }
}

extension LogDamage {
    /// What a reader left out at the end of a log, as a JSON object.
    public var jsonValue: JSONValue {
        .object([
            "offset": .integer(offset),
            "frame": .integer(frame),
            "droppedBytes": .integer(droppedBytes),
            "reason": .string(reason),
            "tornTail": .bool(isTornTail),
            "recoveredEvents": .integer(recoveredEvents),
        ])
    }
}
