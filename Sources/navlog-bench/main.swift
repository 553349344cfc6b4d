import NavLogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

if CommandLine.arguments.dropFirst().first == "import" { ImportBenchmark.run(Array(CommandLine.arguments.dropFirst(2))); exit(0) }

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
if CommandLine.arguments.dropFirst().first == "timetravel" { runTimeTravelBenchmark(); exit(0) }
let lines = [
  #"{"scene":"main","seq":12,"session":"s-000042","stack":"home","t":"2026-11-20T10:00:07.000Z","type":"stack.push","value":{"id":"apple-pie","type":"Recipe"}}"#,
  #"{"seq":13,"session":"s-000042","t":"2026-11-20T10:00:08.120Z","tab":"search","type":"tab.select"}"#,
  #"{"count":2,"seq":14,"session":"s-000042","stack":"home","t":"2026-11-20T10:00:09.000Z","type":"stack.pop"}"#,
  #"{"label":"purchase","meta":{"amount":"12.99"},"seq":15,"session":"s-000042","t":"2026-11-20T10:00:14.000Z","type":"mark"}"#,
]
var bytes: [[UInt8]] = (0..<1_000_000).map { Array(lines[$0 % 4].utf8) }
var total = 0
let t0 = now()
var p = EventLineParser()
for b in bytes { let e = try! p.parse(b); total &+= e.seq }
let t1 = now()
print("parse: \(Double(bytes.count) / (t1 - t0)) events/s", total)
