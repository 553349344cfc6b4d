// navlog-recorder-probe/: A recording program the tests kill in the middle of a write (RecorderCrashTests).
// Used only by the tests (RecorderCrashTests): records COUNT events into
// LOG, flushes, prints "flushed <seq>" (the last seq acknowledged durable),
// then keeps recording without flushing until it is killed.
//
//   navlog-recorder-probe LOG SESSION COUNT
import Foundation
import NavLogCore
import NavLogRecorder

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: navlog-recorder-probe LOG SESSION COUNT\n".utf8))
    exit(2)
}
do {
    let recorder = try NavigationRecorder(path: arguments[1], session: arguments[2],
                                          app: ["name": .string("probe")])
    var last = 0
    for i in 0..<count {
        last = recorder.record(.mark(label: "flushed-\(i)")) ?? last
    }
    try recorder.flush()
    FileHandle.standardOutput.write(Data("flushed \(last)\n".utf8))
    var i = 0
    while true {
        recorder.record(.mark(label: "unflushed-\(i)"))
        i += 1
        if i % 100 == 0 { usleep(1000) }
    }
} catch {
    FileHandle.standardError.write(Data("navlog-recorder-probe: \(error)\n".utf8))
    exit(2)
}
