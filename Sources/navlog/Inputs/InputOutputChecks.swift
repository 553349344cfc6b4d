// Inputs/: The library's inputs opened for a command (one session, a stream of sessions), an output path that is also an input refused, and their messages on standard error.
import ArgumentParser
import NavLogStore

/// `Inputs/`: the command line's inputs before and as they are read. What
/// a path names and how one session is read are the library's
/// (`InputKind`, `OneSession` in NavLogStore); here are the checks made
/// first and where what is noted on the way is printed (`OneSession.opened`).
///
/// The checks every command makes on the files its command line names,
/// before it reads any of them: standard input is read once, and no file
/// it writes is one of its inputs.
enum InputOutputChecks {
    /// Refuses `-` given more than once: standard input can be read only
    /// once, and a second reading would see nothing (or the rest of a line).
    /// For `validate()`: argument-parser prints it as a usage error (exit 2).
    static func standardInputOnce(_ inputs: [String]) throws {
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    /// Refuses (exit 2) writing the file `output`, named by `option`, when it
    /// is one of `inputs` (the same file by device and inode, whatever its
    /// name) or lies inside an input directory or in `store`: creating it
    /// would destroy what is still to be read.
    static func refuseOverwriting(_ output: String, option: String, inputs: [String], store: String? = nil) throws {
        switch FileIdentity.overlap(writing: output, inputs: inputs + (store.map { [$0] } ?? [])) {
        case nil:
            return
        case .same(let input) where input == "-":
            throw CLIFailure.trouble("\(option) \(output) is standard input: writing it would destroy that input")
        case .same(let input):
            throw CLIFailure.trouble("\(option) \(output) is the input \(input): writing it would destroy that input")
        case .inside(let directory) where directory == store:
            throw CLIFailure.trouble("\(option) \(output) is in the store \(directory): name a file outside it")
        case .inside(let directory):
            throw CLIFailure.trouble("\(option) \(output) is in the input \(directory): name a file outside it")
        }
    }
}
