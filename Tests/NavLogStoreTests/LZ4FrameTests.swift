import Foundation
import Testing
@testable import NavLogStore
import NavLogTestSupport

@Suite struct LZ4FrameTests {
    @Test(arguments: [0, 1, 100, 65_535, 65_536, 300_000, 2_000_000])
    func roundTrip(size: Int) throws {
        let content = Array(sampleLines(size / 100 + 1).prefix(size))
        let encoder = try LZ4FrameEncoder()
        let frame = ByteBuffer()
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
        let decoder = try LZ4FrameDecoder()
        let out = ByteBuffer()
        let used = try decoder.decodeFrame(frame.bytes, maxContentBytes: 4 << 20, into: out)
        #expect(used == frame.count)
        #expect(out.array == content)
    }

    @Test("Without a content checksum a frame is 4 bytes shorter, its FLG says so, and it decodes")
    func noContentChecksum() throws {
        let content = Array(sampleLines(100))
        var frames: [[UInt8]] = []
        for checksum in [true, false] {
            let encoder = try LZ4FrameEncoder(settings: LZ4FrameSettings(contentChecksum: checksum))
            let frame = ByteBuffer()
            try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
            let out = ByteBuffer()
            #expect(try LZ4FrameDecoder().decodeFrame(frame.bytes, maxContentBytes: 1 << 20, into: out) == frame.count)
            #expect(out.array == content)
            frames.append(frame.array)
        }
        #expect(frames[1].count == frames[0].count - 4 && frames[0][4] & 0x04 != 0 && frames[1][4] & 0x04 == 0)
    }

    @Test(arguments: LZ4FrameSettings.BlockSize.allCases)
    func realLZ4ToolDecodesOurFrames(blockSize: LZ4FrameSettings.BlockSize) throws {
        let content = sampleLines(5000)
        let encoder = try LZ4FrameEncoder(settings: LZ4FrameSettings(blockSize: blockSize))
        let frame = ByteBuffer()
        // One frame built incrementally (several flushes), one whole.
        try encoder.begin(contentSize: nil, into: frame)
        try content.withUnsafeBytes { all in
            try encoder.update(UnsafeRawBufferPointer(rebasing: all[0..<1000]), into: frame)
            try encoder.update(UnsafeRawBufferPointer(rebasing: all[1000...]), into: frame)
        }
        try encoder.end(into: frame)
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
        let decoded = runForBytes(lz4Tool, ["-dc"], stdin: Data(frame.array))
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == content + content)
    }

    @Test func lz4ToolPassesOverSkippableFramesAndTheEmptyFrame() throws {
        let content = sampleLines(50)
        let encoder = try LZ4FrameEncoder()
        let out = ByteBuffer()
        out.append(NavLogFormat.emptyFrame)
        var record: [UInt8] = []
        SkippableFrame.appendRecord(tag: .header, body: [1, 2, 3, 4], to: &record)
        out.append(record)
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: out) }
        out.append(record)
        // A skippable frame with another magic is passed over too.
        var foreign: [UInt8] = []
        foreign.appendLE(UInt32(0x184D_2A53))
        foreign.appendLE(UInt32(3))
        foreign.append(contentsOf: [9, 9, 9])
        out.append(foreign)
        let decoded = runForBytes(lz4Tool, ["-dc"], stdin: Data(out.array))
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == content)
    }

    @Test func emptyFrameIsWhatLZ4WritesForNothing() throws {
        let frame = runForBytes(lz4Tool, ["-c", "-1"], stdin: Data())
        #expect(frame.stdout == NavLogFormat.emptyFrame)
        guard case .header(let header) = NavLogFormat.emptyFrame.withUnsafeBytes({ LZ4FrameDescriptor.parse($0) })
        else { Issue.record("empty frame header does not parse"); return }
        #expect(header.headerBytes == 7)
        #expect(header.contentChecksum)
    }

    @Test func decoderRefusesContentBeyondItsLimit() throws {
        let content = [UInt8](repeating: 0x41, count: 1 << 20)
        let encoder = try LZ4FrameEncoder()
        let frame = ByteBuffer()
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
        let decoder = try LZ4FrameDecoder()
        let out = ByteBuffer(capacity: 16)
        #expect(throws: LZ4FrameError.self) {
            try decoder.decodeFrame(frame.bytes, maxContentBytes: 100_000, into: out)
        }
        // Nothing beyond the limit (plus one byte) was allocated.
        #expect(out.capacity <= 100_001)
        #expect(out.count == 0)
    }

    /// A header claiming 4 GB of content, with a valid header checksum: the
    /// claim is never used to allocate, and the frame's real (short) body
    /// fails the content size check.
    @Test func headerClaimingFourGigabytesIsRejectedWithoutAllocating() throws {
        var frame: [UInt8] = []
        frame.appendLE(NavLogFormat.lz4FrameMagic)
        frame.append(0x64 | 0x08)      // version 1, independent, content checksum, content size
        frame.append(0x70)             // 4 MB blocks
        frame.appendLE(UInt64(4) << 30)
        frame.append(UInt8(truncatingIfNeeded: XXHash32.hash(Array(frame[4...])) >> 8))
        frame.appendLE(UInt32(5) | 0x8000_0000)  // an uncompressed block of 5 bytes
        frame.append(contentsOf: [1, 2, 3, 4, 5])
        frame.appendLE(UInt32(0))
        frame.appendLE(XXHash32.hash([1, 2, 3, 4, 5]))
        let decoder = try LZ4FrameDecoder()
        let out = ByteBuffer(capacity: 16)
        #expect(throws: LZ4FrameError.self) {
            try frame.withUnsafeBytes { try decoder.decodeFrame($0, maxContentBytes: 1 << 20, into: out) }
        }
        #expect(out.capacity <= 1 << 20 + 1)
    }

    @Test func blockClaimingMoreThanItsMaximumIsRejected() throws {
        var frame: [UInt8] = []
        frame.appendLE(NavLogFormat.lz4FrameMagic)
        frame.append(0x64)
        frame.append(0x40)             // 64 KB blocks
        frame.append(UInt8(truncatingIfNeeded: XXHash32.hash(Array(frame[4...])) >> 8))
        frame.appendLE(UInt32(0x7FFF_FFFF))      // a 2 GB block
        frame.append(contentsOf: [UInt8](repeating: 7, count: 100))
        let decoder = try LZ4FrameDecoder()
        let out = ByteBuffer(capacity: 16)
        #expect(throws: LZ4FrameError.self) {
            try frame.withUnsafeBytes { try decoder.decodeFrame($0, maxContentBytes: 1 << 20, into: out) }
        }
    }

    @Test func badMagicAndFlippedChecksumsAreErrors() throws {
        let content = sampleLines(200)
        let encoder = try LZ4FrameEncoder()
        let frame = ByteBuffer()
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
        let good = frame.array
        let decoder = try LZ4FrameDecoder()
        for position in [0, 4, 5, good.count / 2, good.count - 2] {
            var bad = good
            bad[position] ^= 0x10
            let out = ByteBuffer()
            #expect(throws: LZ4FrameError.self, "flip at \(position)") {
                try bad.withUnsafeBytes { try decoder.decodeFrame($0, maxContentBytes: 1 << 20, into: out) }
            }
        }
        // The decoder is reusable after errors.
        let out = ByteBuffer()
        _ = try good.withUnsafeBytes { try decoder.decodeFrame($0, maxContentBytes: 1 << 20, into: out) }
        #expect(out.array == content)
    }

    @Test func truncatedFrameReportsTruncationAndKeepsCompleteBlocks() throws {
        let content = sampleLines(3000)    // several 64 KB blocks
        let encoder = try LZ4FrameEncoder(settings: LZ4FrameSettings(blockSize: .max64KB))
        let frame = ByteBuffer()
        try content.withUnsafeBytes { try encoder.compressFrame($0, into: frame) }
        let decoder = try LZ4FrameDecoder()
        let cut = frame.count - 10
        let out = ByteBuffer()
        let progress = decoder.decodePrefix(UnsafeRawBufferPointer(rebasing: frame.bytes[0..<cut]),
                                            maxContentBytes: 1 << 20, into: out)
        #expect(!progress.finished)
        #expect(progress.error == nil)
        #expect(out.count > 0 && out.count < content.count)
        #expect(Array(content.prefix(out.count)) == out.array)
        #expect(throws: LZ4FrameError.self) {
            try decoder.decodeFrame(UnsafeRawBufferPointer(rebasing: frame.bytes[0..<cut]),
                                    maxContentBytes: 1 << 20, into: ByteBuffer())
        }
    }

    @Test func errorsNameTheCall() throws {
        let decoder = try LZ4FrameDecoder()
        let garbage: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
        do {
            _ = try garbage.withUnsafeBytes { try decoder.decodeFrame($0, maxContentBytes: 100, into: ByteBuffer()) }
            Issue.record("garbage decoded")
        } catch let error as LZ4FrameError {
            #expect(error.call == "LZ4F_decompress")
            #expect(error.description.hasPrefix("LZ4F_decompress: ERROR_"))
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
