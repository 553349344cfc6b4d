#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sorts more elements than memory should hold: up to ``chunk`` are kept;
/// past that, each sorted chunk goes to an anonymous temporary file
/// (`tmpfile`, gone when closed) and the files are merged as the elements
/// are taken back.
///
/// ```swift
/// let sorter = ExternalSorter<PairKey>(chunk: 1 << 20)
/// try sorter.add(PairKey(7, 1))
/// while let pair = try sorter.next() { … }   // in order, after the last add
/// ```
final class ExternalSorter<Element: SpillRecord> {
    /// Elements kept in memory before a chunk is written out.
    let chunk: Int
    private let before: (Element, Element) -> Bool
    /// Sorts a chunk: `sort(by: before)`, or, for `Comparable` elements, `sort()`,
    /// whose `<` the compiler inlines (a chunk of pairs sorts in about half the time).
    private let sortChunk: (inout [Element]) -> Void
    // Unchecked: one thread uses a sorter, and ``next()`` runs once an
    // element; the runtime's exclusivity checks were most of its cost.
    @exclusivity(unchecked) private var held: [Element] = []
    @exclusivity(unchecked) private var spills: [UnsafeMutablePointer<FILE>] = []
    /// While merging: each spill's next element; `nil` once taken to its end.
    @exclusivity(unchecked) private var heads: [Element?] = []
    @exclusivity(unchecked) private var merging = false
    @exclusivity(unchecked) private var nextHeld = 0

    convenience init(chunk: Int, by before: @escaping (Element, Element) -> Bool) {
        self.init(chunk: chunk, by: before) { $0.sort(by: before) }
    }

    /// Sorting each chunk with `sortChunk`, which must order it as `before` does.
    init(chunk: Int, by before: @escaping (Element, Element) -> Bool, sortChunk: @escaping (inout [Element]) -> Void) {
        self.chunk = max(1, chunk)
        self.before = before
        self.sortChunk = sortChunk
    }

    deinit { for file in spills { fclose(file) } }

    func add(_ element: Element) throws(FileError) {
        precondition(!merging, "ExternalSorter.add after next")
        held.append(element)
        if held.count >= chunk { try spill() }
    }

    /// The next element in order (the first call ends the adding); `nil` after the last.
    func next() throws(FileError) -> Element? {
        if !merging {
            merging = true
            if spills.isEmpty {
                sortChunk(&held)
            } else {
                if !held.isEmpty { try spill() }
                for file in spills {
                    rewind(file)
                    heads.append(try Element.read(from: file))
                }
            }
        }
        if spills.isEmpty {
            guard nextHeld < held.count else {
                held = []
                return nil
            }
            nextHeld += 1
            return held[nextHeld - 1]
        }
        var best: Int?
        for (i, head) in heads.enumerated() {
            guard let head else { continue }
            if best.map({ before(head, heads[$0]!) }) ?? true { best = i }
        }
        guard let best else { return nil }
        let element = heads[best]
        heads[best] = try Element.read(from: spills[best])
        return element
    }

    /// Writes the held elements, sorted, to a new temporary file.
    private func spill() throws(FileError) {
        guard let file = tmpfile() else { throw FileError.io(path: "a temporary file", call: "tmpfile", errno: errno) }
        spills.append(file)
        sortChunk(&held)
        try Element.write(held, to: file)
        held.removeAll(keepingCapacity: true)
    }
}

extension ExternalSorter where Element: Comparable {
    convenience init(chunk: Int) { self.init(chunk: chunk, by: <) { $0.sort() } }
}

/// How an element of an ``ExternalSorter`` goes to its temporary files and back.
protocol SpillRecord {
    static func write(_ elements: [Self], to file: UnsafeMutablePointer<FILE>) throws(FileError)
    /// The next element of `file`; `nil` at its end.
    static func read(from file: UnsafeMutablePointer<FILE>) throws(FileError) -> Self?
}
