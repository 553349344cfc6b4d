#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// A progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar {
    private let totalBytes: Int64?
    private var lastDraw: Int64 = 0
    private var drawn = false

    /// `nil` when standard error is not a terminal.
    init?(totalBytes: Int64?) {
        guard isatty(2) != 0 else { return nil }
        self.totalBytes = totalBytes
    }

    /// The summed size of the inputs when every one is a regular file.
    static func totalSize(of paths: [String]) -> Int64? {
        var total: Int64 = 0
        for path in paths {
            guard path != "-", case .regularFile(let size) = FileSystem.status(path) else { return nil }
            total += size
        }
        return total
    }

    func draw(_ progress: StoreIngester.Progress) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let ms = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
        guard ms - lastDraw >= 100 else { return }
        lastDraw = ms
        var text = "\r"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(Double(progress.bytesRead) / Double(totalBytes), 1)
            let filled = Int(fraction * 30)
            text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            text += "\(Int(fraction * 100))% "
        }
        text += "\(progress.linesRead) lines, \(progress.rejected) rejected\u{1B}[K"
        write(text)
        drawn = true
    }

    /// Removes the bar (before a message, and at the end).
    func clear() {
        if drawn { write("\r\u{1B}[K") }
        drawn = false
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = DescriptorWrite.all(UnsafeRawBufferPointer($0), to: 2) }
    }
}
