// libFuzzer harness: arbitrary bytes as a .navlog file: open, scan, state at a point (built by tools/fuzz).
import NavLogFuzzEntry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.logFile(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
