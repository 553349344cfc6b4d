import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// PartitionedOutput's rule for ending parts, with tiny limits: a part ends
/// past `partBytes`, and a day's part is finished when more days than
/// `openParts` are written at once; every part stays a whole gzip file
/// with its header, and each day's parts in number order hold its rows in order.
@Suite struct PartitionedOutputTests {
    @Test func partsRollBySizeAndByOpenStreamsAndKeepEveryRowInOrder() throws {
        let dir = try TemporaryDirectory()
        var limits = PartitionedOutput.Limits()
        limits.partBytes = 60
        limits.openParts = 2
        limits.flushBytes = 12
        limits.bufferedBytes = 40
        let output = try PartitionedOutput(directory: dir.file("out"), fileExtension: "csv", header: Array("h\n".utf8), byDay: true, limits: limits)
        var expected: [Int64: [String]] = [:]
        var frames: [UInt8] = []
        for i in 0..<240 {
            let day = Int64((i * 7) % 4)
            let row = "d\(day)-\(i)\n"
            expected[day, default: []].append(row)
            PartitionedOutput.appendFrame(day: day, rows: Array(row.utf8), to: &frames)
            if i % 5 == 4 {
                output.write(frames: frames)
                frames.removeAll()
            }
        }
        output.write(frames: frames)
        let written = try output.finish()

        let days = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).sorted()
        #expect(days == ["dt=1970-01-01", "dt=1970-01-02", "dt=1970-01-03", "dt=1970-01-04"])
        var total = 0
        for (index, name) in days.enumerated() {
            let parts = try FileManager.default.contentsOfDirectory(atPath: dir.file("out/\(name)")).sorted()
            total += parts.count
            #expect(parts.first == "part-00000.csv.gz")
            #expect(parts.count >= 3, "\(name): \(parts)")
            var rows: [String] = []
            for part in parts {
                let unzipped = run("/usr/bin/env", ["gzip", "-dc", dir.file("out/\(name)/\(part)")])
                #expect(unzipped.status == 0, "\(name)/\(part): \(unzipped.stderr)")
                #expect(unzipped.stdout.hasPrefix("h\n"))
                rows += unzipped.stdout.dropFirst(2).split(separator: "\n").map { $0 + "\n" }
            }
            #expect(rows == expected[Int64(index)], "\(name)")
        }
        #expect(written == total)
    }

    @Test func withoutDaysAnEmptyExportIsOnePartWithItsHeader() throws {
        let dir = try TemporaryDirectory()
        let output = try PartitionedOutput(directory: dir.file("out"), fileExtension: "csv", header: Array("a,b\n".utf8), byDay: false)
        #expect(try output.finish() == 1)
        let unzipped = run("/usr/bin/env", ["gzip", "-dc", dir.file("out/part-00000.csv.gz")])
        #expect(unzipped.status == 0, "\(unzipped.stderr)")
        #expect(unzipped.stdout == "a,b\n")
        let days = try PartitionedOutput(directory: dir.file("days"), fileExtension: "csv", header: Array("a,b\n".utf8), byDay: true)
        #expect(try days.finish() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("days")).isEmpty)
    }
}
