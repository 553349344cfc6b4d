import ArgumentParser
import NavLogStore

/// `--check-blocks` of the commands that answer from a log's index and
/// checkpoints (`bisect`, `diff`) and so do not read most of its blocks: a
/// damaged block they skip would go unnoticed. Without the flag the answer
/// stays fast and one line on standard error says which logs had blocks that
/// were not read; with it every block's checksums are checked first (no
/// decompression, O(file size)), and damage is exit 1 naming file and offset.
struct BlockCheckOptions: ParsableArguments {
    @Flag(name: .customLong("check-blocks"),
          help: "First check the checksums of every data block of each log (reads the whole files); exit 1 on damage.")
    var checkBlocks = false
}

/// The logs a command answered from, and what it did about their blocks.
final class BlockCheck {
    private let checking: Bool
    private var sessions: [OneSession] = []

    init(_ options: BlockCheckOptions) { checking = options.checkBlocks }

    /// Before the answer: with `--check-blocks`, checks every block of a
    /// log (a damaged one is exit 1); without, remembers it for ``noteUnread()``.
    func prepare(_ session: OneSession) throws {
        if checking {
            try reading { () throws(OneSessionError) in try session.checkBlocks() }
        } else {
            sessions.append(session)
        }
    }

    /// After the answer: one line on standard error naming the logs some of
    /// whose blocks were not read, so not checked for damage.
    func noteUnread() {
        let unchecked = sessions.compactMap(\.unreadBlocks).filter { $0.notRead > 0 }
            .map { "\($0.file) (\($0.notRead) of \($0.of))" }
        guard !unchecked.isEmpty else { return }
        Output.flushStandardOutput()
        Output.error("answered from the index: blocks not read were not checked for damage: "
                     + unchecked.joined(separator: ", ") + "; --check-blocks checks them")
    }
}
