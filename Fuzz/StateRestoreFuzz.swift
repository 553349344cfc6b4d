// libFuzzer harness: arbitrary JSON text as a state.restore scene / a state checkpoint (built by tools/fuzz).
import NavLogFuzzEntry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateRestore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.stateRestore(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
