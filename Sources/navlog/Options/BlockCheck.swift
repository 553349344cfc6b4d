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
    private var unread: [String] = []
    private var readers: [(path: String, reader: LogReader)] = []

    init(_ options: BlockCheckOptions) { checking = options.checkBlocks }

    /// Before the answer: with `--check-blocks`, checks every block of the
    /// log (a damaged one is exit 1); without, remembers the log for ``noteUnread()``.
    func prepare(_ reader: LogReader, _ path: String) throws {
        if checking {
            do { try reader.checkBlocks() } catch { throw CLIFailure(error) }
        } else {
            readers.append((path, reader))
        }
    }

    /// After the answer: one line on standard error naming the logs some of
    /// whose blocks were not read, so not checked for damage.
    func noteUnread() {
        let unchecked = readers.filter { $0.reader.blocksNotRead > 0 }
            .map { "\($0.path) (\($0.reader.blocksNotRead) of \($0.reader.blocks.count))" }
        guard !unchecked.isEmpty else { return }
        Output.flushStandardOutput()
        Output.error("answered from the index: blocks not read were not checked for damage: "
                     + unchecked.joined(separator: ", ") + "; --check-blocks checks them")
    }
}
