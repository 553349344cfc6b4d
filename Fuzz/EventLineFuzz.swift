// libFuzzer harness: one NDJSON line through EventLineParser (built by tools/fuzz).
import NavLogFuzzEntry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.eventLine(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
