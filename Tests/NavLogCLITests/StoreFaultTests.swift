import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// The fault suite of a segment store (schemas/segment-store.md §9.1): a
/// small store of several segments, every byte of it durable, has bits
/// flipped, is cut at every commit boundary and inside commits, and loses
/// each of its files; then every reading command, the next writer and
/// `repair` run on it through the real binary. No reader may answer
/// differently from the clean store with exit 0, and no writer may move or
/// drop a stored byte. The counts are printed (docs/reliability.md).
@Suite(.serialized) struct StoreFaultTests {
    /// What a fault is done to a copy of the store.
    enum Fault: CustomStringConvertible {
        case flip(file: String, offset: Int)
        case truncate(file: String, length: Int)
        case delete(file: String)

        var file: String {
            switch self {
            case .flip(let file, _), .truncate(let file, _), .delete(let file): file
            }
        }

        var description: String {
            switch self {
            case .flip(let file, let offset): "flip \(file)@\(offset)"
            case .truncate(let file, let length): "truncate \(file) to \(length)"
            case .delete(let file): "delete \(file)"
            }
        }
    }

    /// The clean store, its sessions, and what every reader says of it.
    final class Fixture {
        let dir: TemporaryDirectory
        let store: String
        let readers: [[String]]
        let clean: [(status: Int32, stdout: String)]
        let extra: String

        init() throws {
            dir = try TemporaryDirectory()
            let ndjson = dir.file("sessions.ndjson")
            let g = navlog("generate", "--sessions", "14", "--seed", "11", "--events-per-session", "4-30", "--interleave", "-o", ndjson)
            #expect(g.status == 0, "\(g.stderr)")
            let lines = try String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n")
            store = dir.file("store")
            try makeSegmentStore(store, lines: lines, options: SegmentWriterOptions(
                blockTarget: 1 << 10, checkpointInterval: 4, commitTarget: 3 << 10, segmentTarget: 5 << 10))
            #expect(navlog("reindex", store).status == 0)
            let ids = lines.compactMap { line -> String? in
                guard let range = line.range(of: #""session":""#) else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "\"" })
            }
            let a = try #require(ids.first), b = try #require(ids.last { $0 != a })
            readers = [
                ["state", store, "--session", b], ["cat", store, "--session", a], ["info", store, "--session", b],
                ["sessions", store], ["funnel", store, "--step", "*", "--step", "*", "--format", "csv"],
                ["paths", store, "--format", "csv"], ["export", "events", store, "--format", "ndjson"],
                ["diff", store, store, "--session-a", a, "--session-b", b],
                ["bisect", store, store, "--session-a", a, "--session-b", b],
                ["blame", store, "--session", b], ["replay", store, "--session", a], ["verify", store],
            ]
            clean = readers.map { args in
                let result = navlog(args)
                return (result.status, result.stdout)
            }
            extra = try dir.file("extra.ndjson", (1...5).map {
                #"{"seq":\#($0),"session":"fault-new","t":"2026-11-20T10:00:0\#($0)Z","type":"mark","label":"m\#($0)"}"#
            }.joined(separator: "\n") + "\n")
        }

        /// The store's files, by kind, and the faults to try on each.
        func faults() throws -> [(kind: String, fault: Fault)] {
            var out: [(String, Fault)] = []
            let names = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
            let segments = names.filter { $0.hasSuffix(".nls") }
            let sample = ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"] == nil ? 1 : 5
            for name in names {
                let bytes = fileBytes(store + "/" + name)
                let kind: String
                var flips: [Int] = [], cuts: [Int] = []
                if name.hasSuffix(".nls") {
                    kind = name == segments.last ? "segment (unsealed)" : "segment (sealed)"
                    let ends = Self.commitEnds(bytes)
                    var starts = [0] + ends.dropLast()
                    starts[0] = min(ends.first ?? 0, 47)            // the first commit starts after the preamble
                    for (start, end) in zip(starts, ends) {
                        flips += [start, start + (end - start) / 3, end - 3]
                        cuts += [start, start + (end - start) / 2]
                    }
                    flips += [5, 20, bytes.count - 10]            // preamble, header; footer or last index
                    cuts += [ends.last ?? 0, 30]
                } else if name.hasSuffix(".views") {
                    kind = "projection (.views)"
                    flips = [4, bytes.count / 2, bytes.count - 2]
                    cuts = [bytes.count / 2]
                } else {
                    kind = name == "LOCK" ? "LOCK" : name == "navlog-store" ? "manifest" : name
                    flips = bytes.isEmpty ? [] : [0, bytes.count / 2, bytes.count - 1]
                    cuts = bytes.isEmpty ? [] : [0, bytes.count / 2]
                }
                let local = flips.filter { $0 >= 0 && $0 < bytes.count }.map { Fault.flip(file: name, offset: $0) }
                    + Set(cuts.filter { $0 >= 0 && $0 < bytes.count }).sorted().map { Fault.truncate(file: name, length: $0) }
                out += local.enumerated().filter { $0.offset % sample == 0 }.map { (kind, $0.element) }
                out.append((kind, .delete(file: name)))
            }
            return out
        }

        /// Where each commit index frame ends: a skippable frame of the
        /// store's magic whose record tag is `NLCI`.
        static func commitEnds(_ bytes: [UInt8]) -> [Int] {
            var ends: [Int] = []
            var i = 0
            while i + 12 <= bytes.count {
                if bytes[i] == 0x5E, bytes[i + 1] == 0x2A, bytes[i + 2] == 0x4D, bytes[i + 3] == 0x18,
                   bytes[i + 8] == 0x4E, bytes[i + 9] == 0x4C, bytes[i + 10] == 0x43, bytes[i + 11] == 0x49 {
                    let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
                    ends.append(i + 8 + size)
                    i += 8 + size
                } else {
                    i += 1
                }
            }
            return ends
        }
    }

    /// Per kind of file: trials, and what readers, the writer and repair did.
    struct Tally {
        var trials = 0, readerRuns = 0, sameAnswer = 0, damageSaid = 0, otherRefusal = 0, silentWrong = 0
        var writerAppended = 0, writerRefused = 0, bytesLost = 0, repaired = 0, verifiesAfter = 0
    }

    @Test("Flips, cuts and deletions in every file of a store: 0 silent wrong answers, 0 stored bytes moved by a writer")
    func faultSuite() throws {
        let fixture = try Fixture()
        #expect(fixture.clean.allSatisfy { !$0.stdout.isEmpty && $0.status <= 1 })
        let segments = try FileManager.default.contentsOfDirectory(atPath: fixture.store).filter { $0.hasSuffix(".nls") }
        #expect(segments.count >= 3, "\(segments)")
        var tallies: [String: Tally] = [:]
        var failures: [String] = [], otherRefusals: [String] = []
        for (kind, fault) in try fixture.faults() {
            var tally = tallies[kind] ?? Tally()
            tally.trials += 1
            let copy = fixture.dir.file("copy")
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: fixture.store, toPath: copy)
            apply(fault, in: copy)
            for (args, expected) in zip(fixture.readers, fixture.clean) {
                var result = navlog(args.map { $0 == fixture.store ? copy : $0 })
                result.stdout = result.stdout.replacingOccurrences(of: copy, with: fixture.store)
                tally.readerRuns += 1
                let saysDamage = result.status == 1 && (result.stderr.contains("damage") || args[0] == "verify")
                if result.status == expected.status && result.stdout == expected.stdout {
                    tally.sameAnswer += 1
                } else if saysDamage {
                    tally.damageSaid += 1
                } else if result.status == 0 || result.status == expected.status {
                    // An answer other than the clean store's, with no word of damage.
                    tally.silentWrong += 1
                    failures.append("\(fault): \(args[0]) answered differently with exit \(result.status): \(result.stderr)")
                } else {
                    tally.otherRefusal += 1
                    otherRefusals.append("\(fault): \(args[0]) exit \(result.status): \(result.stderr)")
                }
            }
            // The next writer: refuses (every stored byte as it was) or appends (every segment's bytes a prefix of what is there after).
            let before = segmentBytes(copy)
            let writer = navlog("ingest", fixture.extra, "--store", copy)
            let after = segmentBytes(copy)
            if writer.status == 0 {
                tally.writerAppended += 1
                let kept = before.allSatisfy { name, bytes in after[name].map { $0.starts(with: bytes) } ?? false }
                if !kept { tally.bytesLost += 1; failures.append("\(fault): ingest exit 0 moved stored bytes") }
            } else {
                tally.writerRefused += 1
                if before != after { tally.bytesLost += 1; failures.append("\(fault): ingest refused but changed the segments") }
                if writer.status != 2 || !writer.stderr.contains("navlog repair") {
                    failures.append("\(fault): ingest refused without naming navlog repair (exit \(writer.status)): \(writer.stderr)")
                }
            }
            // repair, then verify.
            let repair = navlog("repair", copy)
            if repair.status == 0 { tally.repaired += 1 }
            if navlog("verify", copy).status == 0 { tally.verifiesAfter += 1 }
            tallies[kind] = tally
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        var report = "kind | trials | reader runs | same answer | damage said (exit 1) | other refusal | silent wrong | writer appended | writer refused | stored bytes moved by a writer | repair exit 0 | verify ok after repair\n"
        for (kind, t) in tallies.sorted(by: { $0.key < $1.key }) {
            report += "\(kind) | \(t.trials) | \(t.readerRuns) | \(t.sameAnswer) | \(t.damageSaid) | \(t.otherRefusal) | \(t.silentWrong) | "
                + "\(t.writerAppended) | \(t.writerRefused) | \(t.bytesLost) | \(t.repaired) | \(t.verifiesAfter)\n"
        }
        print(report)
        print(otherRefusals.prefix(30).joined(separator: "\n"))
        let total = tallies.values.reduce(Tally()) { sum, t in
            var s = sum
            s.silentWrong += t.silentWrong; s.bytesLost += t.bytesLost; s.trials += t.trials
            return s
        }
        // Under a sanitizer a fifth of the faults are tried (faults()).
        let fewest = ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"] == nil ? 40 : 8
        #expect(total.silentWrong == 0 && total.bytesLost == 0 && total.trials > fewest, "\(total.trials) trials")
    }

    private func apply(_ fault: Fault, in store: String) {
        let path = store + "/" + fault.file
        switch fault {
        case .flip(_, let offset):
            var bytes = fileBytes(path)
            bytes[offset] ^= 0x10
            writeFile(path, bytes)
        case .truncate(_, let length):
            writeFile(path, Array(fileBytes(path).prefix(length)))
        case .delete:
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Every segment file's bytes, by name.
    private func segmentBytes(_ store: String) -> [String: [UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []
        return Dictionary(uniqueKeysWithValues: names.filter { $0.hasSuffix(".nls") }.map { ($0, fileBytes(store + "/" + $0)) })
    }
}

private func fileBytes(_ path: String) -> [UInt8] {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) } ?? []
}

private func writeFile(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}
