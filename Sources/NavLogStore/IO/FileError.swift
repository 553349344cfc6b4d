/// What went wrong with one file: a system call on it (any file navlog
/// opens: a log, a segment, an input, an output), or, for a `.navlog` log,
/// its damage or a refused event. One typed error that prints as one line
/// and says where: the file, the byte offset, the frame (counted from 0 at
/// the start of the file) and the seq, where they apply.
///
/// ```
/// s-1.navlog: byte 48213, frame 9, seq 4097: data frame: LZ4F_decompress: ERROR_contentChecksum_invalid
/// ```
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var kind: Kind
    /// The byte offset in the file where the problem is.
    public var offset: Int64?
    /// The index of the frame where the problem is (0 = the file's first frame).
    public var frame: Int?
    /// The seq of the event concerned (for a block: its first seq).
    public var seq: Int?

    public enum Kind: Hashable, Sendable {
        /// A system call failed.
        case io(call: String, errno: Int32)
        /// Another writer holds the file's lock.
        case locked
        /// The file does not start like a `.navlog` file.
        case notANavlog(NotANavlog)
        /// The file's format major version is not one this build reads.
        case unsupportedVersion(major: UInt16, minor: UInt16)
        /// The bytes are damaged, torn or hostile.
        case corrupt(LogFault)
        /// An event was refused by the writer (and nothing of it was written).
        case rejected(Refusal)
        /// The writer or reader was used after `close()`.
        case closed
        /// liblz4 failed on data navlog produced itself (out of memory, or a bug).
        case compression(LZ4FrameError)
        /// An NDJSON input is binary data or a log (``NDJSONReadError``).
        case input(NDJSONReadError.Problem)
    }

    public init(path: String, kind: Kind, offset: Int64? = nil, frame: Int? = nil, seq: Int? = nil) {
        self.path = path
        self.kind = kind
        self.offset = offset
        self.frame = frame
        self.seq = seq
    }

    static func io(path: String, call: String, errno: Int32, offset: Int64? = nil) -> FileError {
        FileError(path: path, kind: .io(call: call, errno: errno), offset: offset)
    }

    static func corrupt(_ path: String, _ damage: LogFault, offset: Int64?, frame: Int? = nil, seq: Int? = nil) -> FileError {
        FileError(path: path, kind: .corrupt(damage), offset: offset, frame: frame, seq: seq)
    }

    /// A log's damage, thrown as it was found: the same file, place and words.
    init(_ damage: Damage<LogFault>) {
        self.init(path: damage.file, kind: .corrupt(damage.kind), offset: damage.offset, frame: damage.frame, seq: damage.seq)
    }

    /// Whether this is damage to the file's bytes (as opposed to I/O trouble,
    /// a lock, a refused event or misuse).
    public var isCorruption: Bool {
        switch kind {
        case .notANavlog(.segment): false
        case .corrupt, .notANavlog, .unsupportedVersion: true
        default: false
        }
    }

    /// The reason alone, without the location.
    public var reason: String {
        switch kind {
        case .io(let call, let code): "\(call) failed: \(errnoDescription(code))"
        case .locked: "another writer holds the lock on this log"
        case .notANavlog(.segment(let store)): "not a log: \(NotANavlog.segment(store: store))"
        case .notANavlog(let why): "not a navlog file: \(why)"
        case .unsupportedVersion(let major, let minor):
            "format version \(major).\(minor) is not supported (this build reads \(NavLogFormat.majorVersion).x)"
        case .corrupt(let damage): damage.description
        case .rejected(let refusal): "event rejected: \(refusal)"
        case .closed: "the log was already closed"
        case .compression(let why): "compression failed: \(why)"
        case .input(let problem): problem.text(fromStandardInput: path == "-")
        }
    }

    public var description: String {
        let place = placeText(offset: offset, frame: frame, seq: seq)
        return "\(path):\(place.isEmpty ? "" : " \(place):") \(reason)"
    }
}
