import Foundation
import Testing
import NavLogTestSupport

/// `navlog funnel --format svg` / `--svg FILE` draws a chart a real renderer
/// (`rsvg-convert`, Debian's librsvg2-bin, installed by `tools/setup --test`)
/// turns into a non-trivial image.
@Suite struct FunnelChartTests {
    static let rsvg: String = {
        for candidate in ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert", "/opt/homebrew/bin/rsvg-convert"]
        where FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        return "/usr/bin/rsvg-convert"
    }()

    /// Decodes an 8-bit RGB(A) PNG with Python's zlib and prints
    /// `width height distinct-colours dark-fraction r,g,b-at-(x,y)`.
    static let pngStats = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
            if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            if kind == b'IDAT': idat += body
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 4 if ctype == 6 else 3
        raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
        for y in range(h):
            f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
                if f == 1: line[i] = (line[i] + a) & 255
                elif f == 2: line[i] = (line[i] + b) & 255
                elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line); prev = line
        pixels = [tuple(r[i:i + 3]) for r in rows for i in range(0, stride, bpp)]
        dark = sum(1 for p in pixels if sum(p) < 600) / len(pixels)
        x, y = int(sys.argv[2]), int(sys.argv[3])
        print(w, h, len(set(pixels)), '%.3f' % dark, ','.join(map(str, rows[y][x * bpp:x * bpp + 3])))
        """

    @Test func theChartRendersToANonTrivialImage() throws {
        let dir = try TemporaryDirectory()
        let (keep, ndjson, _) = try FunnelCommandTests.inputs()
        _ = keep
        let svg = dir.file("funnel.svg")
        let r = navlog("funnel", ndjson, "--step", "Home", "--step", "Recipe/*", "--step", "mark:purchase", "--svg", svg, "--format", "csv")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("step,pattern"))  // --svg writes the chart besides the chosen format
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.hasPrefix("<?xml") && text.contains("<svg") && text.hasSuffix("</svg>\n"))
        #expect(text.contains(">mark:purchase<") && text.contains("3 sessions"))

        let png = dir.file("funnel.png")
        let rendered = run(Self.rsvg, ["-o", png, svg])
        #expect(rendered.status == 0, "rsvg-convert (tools/setup --test installs librsvg2-bin): \(rendered.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0
        #expect(size > 5_000)
        // The middle of step 1's bar (x 480, y 85) is the first palette colour, #1f4e79.
        let stats = run("/usr/bin/env", ["python3", "-c", Self.pngStats, png, "480", "85"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let fields = stats.stdout.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(fields.count == 5)
        guard fields.count == 5 else { return }
        #expect(fields[0] == "760")
        #expect(Int(fields[1]) ?? 0 > 200)
        #expect(Int(fields[2]) ?? 0 > 20, "distinct colours")
        let dark = Double(fields[3]) ?? 0
        #expect(dark > 0.03 && dark < 0.8, "share of dark pixels \(dark)")
        #expect(fields[4] == "31,78,121")
    }

    @Test func segmentsGetAPanelEachAndTextIsEscaped() throws {
        let (keep, ndjson, _) = try FunnelCommandTests.inputs()
        _ = keep
        let r = navlog("funnel", ndjson, "--step", "Recipe/*", "--step", "mark:<b>&", "--by", "app.version", "--format", "svg")
        #expect(r.status == 0)
        #expect(r.stdout.contains("app.version = 1.0 · 1 session"))
        #expect(!r.stdout.contains("1 sessions"))
        #expect(r.stdout.contains("app.version = (none)"))
        #expect(r.stdout.contains("mark:&lt;b&gt;&amp;") && !r.stdout.contains("<b>"))
        let dir = try TemporaryDirectory()
        let svg = try dir.file("s.svg", r.stdout)
        #expect(run(Self.rsvg, ["-o", dir.file("s.png"), svg]).status == 0)
    }
}
