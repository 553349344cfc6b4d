/// `verify` and `repair` of whatever a path names, a `.navlog` log or a
/// segment store: the one place that picks the format's checker, so that
/// a command asks once and prints what comes back.
///
/// ```swift
/// switch try Integrity.verify("store") {
/// case .log(let report): ...      // LogVerifier's
/// case .store(let report): ...    // SegmentVerifier's
/// }
/// ```
public enum Integrity {
    /// What `verify` found, in the format's own words.
    public enum Verified: Sendable {
        case log(VerifyReport)
        case store(SegmentStoreReport)
    }

    /// What `repair` did.
    public enum Repaired: Sendable {
        case log(RepairReport)
        case store(SegmentRepairReport)
    }

    /// A path that could not be checked or repaired at all.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case log(FileError)
        case store(SegmentStoreError)

        public var description: String {
            switch self {
            case .log(let error): error.description
            case .store(let error): error.description
            }
        }

        /// A store that could not be opened because it is damaged (its
        /// manifest or durable point lost): a "no", not trouble.
        public var isStoreDamage: Bool {
            if case .store(.damaged) = self { return true }
            return false
        }
    }

    /// Whether `path` is checked as a segment store (else as a log).
    public static func isStore(_ path: String) -> Bool {
        // Only a directory's layout is asked: a log's first bytes are read once, by its verifier.
        guard case .directory = FileSystem.status(path) else { return false }
        return StoreLayout.of(path) == .segmentStore
    }

    /// Reads every byte of the log or store at `path` and checks it.
    public static func verify(_ path: String) throws(Failure) -> Verified {
        if isStore(path) {
            do { return .store(try SegmentVerifier.verify(store: SegmentStore.open(at: path))) } catch { throw .store(error) }
        }
        do { return .log(try LogVerifier.verify(path: path)) } catch { throw .log(error) }
    }

    /// Cuts a log's torn or damaged tail, or sets a store's damage aside.
    public static func repair(_ path: String) throws(Failure) -> Repaired {
        if isStore(path) {
            do { return .store(try SegmentRepair.repair(store: DirectoryPath.trimmed(path))) } catch { throw .store(error) }
        }
        do { return .log(try LogRepair.repair(path: path)) } catch { throw .log(error) }
    }
}
