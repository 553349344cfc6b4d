import NavLogCore
import NavLogSample

/// Random single edits of lines, for tests that check an answer never goes
/// wrong on almost-right input: a byte inserted, removed or replaced (taken
/// from `alphabet`), or, with `repeatingRuns`, a run of up to 24 bytes
/// written twice (keys twice, values doubled). Seeded: the same edits every run.
struct RandomLineEdits {
    private var random: SeededRandom
    private let alphabet: [UInt8]
    private let repeatingRuns: Bool

    init(seed: UInt64, alphabet: [UInt8], repeatingRuns: Bool = false) {
        random = SeededRandom(seed: seed)
        self.alphabet = alphabet
        self.repeatingRuns = repeatingRuns
    }

    /// `line` (not empty) with one edit.
    mutating func edit(_ line: [UInt8]) -> [UInt8] {
        var edited = line
        let at = Int(random.next() % UInt64(edited.count))
        switch random.next() % (repeatingRuns ? 4 : 3) {
        case 0: edited.insert(byte(), at: at)
        case 1: edited.remove(at: at)
        case 2: edited[at] = byte()
        default:
            let end = min(edited.count, at + 1 + Int(random.next() % 24))
            edited.insert(contentsOf: edited[at..<end], at: end)
        }
        return edited
    }

    private mutating func byte() -> UInt8 { alphabet[Int(random.next() % UInt64(alphabet.count))] }
}
