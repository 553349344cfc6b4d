import NavLogCore

/// How `navlog generate` writes its events: as navlog's canonical lines, or
/// as other producers write the same events.
public enum SampleLineStyle: String, CaseIterable, Sendable {
    /// navlog's canonical lines (docs/events.md).
    case navlog
    /// The same events with keys in another order, spaces after `:` and
    /// `,`, `t` with an offset and 3–6 fraction digits, and `seq` absent on
    /// about 15 % of lines (see ``ProducerLineWriter``).
    case producer
}

/// Writes a generator's events as lines in one ``SampleLineStyle``.
///
/// The producer style's choices (offset, fraction digits, which lines
/// have no `seq`) follow from the seed. A generated session numbers its
/// events 1, 2, 3, … in the order they are written, so any line may leave
/// out `seq`: numbering within the input gives it the same one.
public struct SampleLineWriter: Sendable {
    public let style: SampleLineStyle
    private var canonical: CanonicalWriter
    private var producer: ProducerLineWriter
    private var random: SeededRandom

    /// Offsets, in minutes, that producer-style lines take: mostly +02:00.
    static let offsets = [120, 120, 120, 60, -300, 330, -480, 540]

    public init(style: SampleLineStyle, seed: UInt64, capacity: Int = 256) {
        self.style = style
        canonical = CanonicalWriter(capacity: capacity)
        producer = ProducerLineWriter(capacity: capacity)
        random = SeededRandom(seed: SeededRandom.derive(seed, stream: 0x5354_594C_45))  // "STYLE"
    }

    /// The lines written so far.
    public var bytes: [UInt8] {
        style == .navlog ? canonical.bytes : producer.bytes
    }

    /// Forgets what was written, keeping the buffer's capacity.
    public mutating func reset() {
        canonical.reset()
        producer.reset()
    }

    /// Writes `event`'s line and a newline.
    public mutating func write(_ event: Event) {
        switch style {
        case .navlog:
            canonical.write(event)
            canonical.bytes.append(0x0A)
        case .producer:
            let digits = random.int(in: 3...6)
            var bound = 1
            for _ in 3..<digits { bound *= 10 }
            let style = ProducerLineStyle(
                offsetMinutes: random.pick(Self.offsets), fractionDigits: digits,
                subMilliseconds: random.int(below: bound), writesSeq: !random.percent(15))
            producer.write(event, style: style)
            producer.bytes.append(0x0A)
        }
    }
}
