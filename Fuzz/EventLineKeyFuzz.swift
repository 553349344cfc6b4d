// libFuzzer harness: one NDJSON line through EventLineParser.key (built by tools/fuzz).
import NavLogFuzzEntry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLineKey(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.eventLineKey(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
