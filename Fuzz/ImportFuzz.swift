// libFuzzer harness: arbitrary bytes through every import converter (built by tools/fuzz).
import NavLogFuzzEntry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.importInput(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
