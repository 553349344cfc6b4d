/// Pauses between failed attempts: exponential, with full jitter — the
/// `n`th failure in a row pauses a random time in `0 … min(maximum,
/// minimum · 2ⁿ⁻¹)` ms, so devices that failed together do not retry together.
struct RetryPause {
    let minimum: Int
    let maximum: Int
    /// Failures in a row.
    private(set) var failures = 0

    init(minimum: Int, maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The bound of the next pause, in ms.
    var bound: Int {
        let doublings = min(failures, 30)
        return min(maximum, minimum << doublings)
    }

    /// Counts a failure and returns the pause before the next attempt, in ms.
    mutating func next<R: RandomNumberGenerator>(using generator: inout R) -> Int {
        let pause = Int.random(in: 0...bound, using: &generator)
        failures += 1
        return pause
    }

    /// A success: the next failure pauses briefly again.
    mutating func reset() { failures = 0 }
}
