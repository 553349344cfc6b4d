import NavLogSample
import NavLogTestSupport
import Testing

/// The tests' generator is SplitMix64, the same steps that seed the samples' generator.
@Suite struct SeededGeneratorTests {
    @Test func testsAndSamplesShareOneSplitMix64() {
        var tests = SeededGenerator(seed: 1234)
        var state: UInt64 = 1234
        for _ in 0..<8 { #expect(tests.next() == SeededRandom.splitMix64(&state)) }
        // Reference: SplitMix64's first output for seed 0.
        var zero = SeededGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
