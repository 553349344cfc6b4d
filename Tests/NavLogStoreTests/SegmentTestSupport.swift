import NavLogTestSupport
import Foundation
import NavLogCore
@testable import NavLogStore

/// Sessions of sample events for segment store tests: `sessions` sessions
/// named `u-<i>`, of 1…`maxEvents` events each (seeded), as canonical lines.
func segmentSessions(_ sessions: Int, maxEvents: Int, seed: UInt64 = 7) -> [(id: String, lines: [[UInt8]])] {
    var rng = SeededGenerator(seed: seed)
    return (0..<sessions).map { i in
        let id = "u-\(i)"
        let count = Int(rng.next() % UInt64(maxEvents)) + 1
        let lines = sampleEvents(count, session: id, seed: UInt64(i) &+ seed).map { Array($0.canonicalLine.utf8) }
        return (id, lines)
    }
}

/// The lines of `sessions` interleaved as a collector receives them: round
/// robin over every session still under way, so all are under way at once.
func interleaved(_ sessions: [(id: String, lines: [[UInt8]])]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    var round = 0
    var left = true
    while left {
        left = false
        for session in sessions where round < session.lines.count {
            out.append(session.lines[round])
            left = true
        }
        round += 1
    }
    return out
}

/// The state after the first `position` of `lines`, folded event by event.
func foldedState(_ lines: [[UInt8]], session: String, position: Int) throws -> NavigationState {
    var state = NavigationState(session: session)
    for line in lines.prefix(position) { _ = state.apply(try EventParser.parse(line)) }
    return state
}

/// The store's segment files, in order.
func segmentFiles(_ store: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: store).filter { SegmentFormat.segmentNumber($0) != nil }.sorted()
        .map { store + "/" + $0 }
}

/// Open file descriptors of this process on files inside `directory`
/// (other tests running at the same time open files of their own, so the
/// process's total says nothing). Linux's /proc names each descriptor's file.
func openDescriptors(inside directory: String) throws -> Int {
    let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    return fds.filter { fd in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd) else { return false }
        return target.hasPrefix(resolved)
    }.count
}

/// Small targets, so that a test's few megabytes make many blocks, commits
/// and segments; no screen projection (the projection's own tests ask for it).
let smallSegmentOptions = SegmentWriterOptions(blockTarget: 8 << 10, checkpointInterval: 16,
                                               commitTarget: 256 << 10, segmentTarget: 1 << 20, keepsProjection: false)
