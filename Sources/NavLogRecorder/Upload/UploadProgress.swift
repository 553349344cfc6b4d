import Foundation
import NavLogStore

/// The side file `LOG.upload` beside a recorder's log: the last seq the
/// collector acknowledged, so that a recorder opened later on the same log
/// sends only what follows it. One line of JSON, `{"acknowledged":N}`,
/// replaced whole (temporary file, sync, rename) after each acknowledgement.
enum UploadProgress {
    /// The side file of the log at `log`.
    static func path(forLog log: String) -> String { log + ".upload" }

    /// The acknowledged seq in the side file at `path`: 0 when there is
    /// none, or when it does not hold one (everything is sent again, and
    /// the collector stores each event once).
    ///
    /// - Throws: ``FileError`` for I/O trouble.
    static func load(_ path: String) throws(FileError) -> Int {
        guard let bytes = try WholeFile.read(path),
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let seq = object["acknowledged"] as? Int, seq >= 0
        else { return 0 }
        return seq
    }

    /// Replaces the side file at `path` with `acknowledged`.
    static func save(_ acknowledged: Int, to path: String) throws(FileError) {
        try WholeFile.replace(path, with: Array("{\"acknowledged\":\(acknowledged)}\n".utf8))
    }
}
