// Segments/Integrity/: `verify` and `repair` of a segment store, the store's words for damage (`SegmentFault`), and where its durable point is for the rule that tells a torn tail from damage.

/// The store's use of ``TornTailRule`` (schemas/segment-store.md §9.1):
/// where each segment's durable point is, which problems a walk of the
/// segments met are a torn tail and which damage, and the damage no walk
/// can meet (a missing segment, a missing `COMMITTED`, a segment cut short
/// at a commit boundary).
struct DamageRule {
    let store: SegmentStore
    let durable: DurablePointFile.Found
    let segments: [SegmentContents]

    /// Every problem, in store order: the store's files first, then each segment's.
    func problems() -> [SegmentDamage] {
        var out: [SegmentDamage] = []
        var point: DurablePoint?
        switch durable {
        case .point(let found): point = found
        case .missing:
            if store.minorVersion != 0 {
                out.append(SegmentDamage(file: DurablePoint.fileName, offset: 0, kind: .storeFile("the durable point file is missing")))
            }
        case .unreadable(let why):
            out.append(SegmentDamage(file: DurablePoint.fileName, offset: 0, kind: .storeFile("the durable point is unreadable: \(why)")))
        }
        if store.lacksManifest {
            out.append(SegmentDamage(file: SegmentFormat.manifestName, offset: 0, kind: .storeFile("the manifest is missing or unreadable")))
        }
        let present = Set(segments.map(\.number))
        let last = max(segments.last?.number ?? 0, point?.segment ?? 0)
        for number in 1..<(last + 1) where !present.contains(number) {
            let durableOne = number == point?.segment ? " (it holds the durable point, commit \(point!.commit))" : ""
            out.append(SegmentDamage(file: SegmentFormat.segmentName(number), offset: 0,
                                     kind: .segment("the segment is missing\(durableOne)")))
        }
        for (i, segment) in segments.enumerated() {
            out += problems(of: segment, isLast: i == segments.count - 1, point: point)
        }
        return out
    }

    /// One segment's problems, classified; plus a durable commit it lacks.
    private func problems(of segment: SegmentContents, isLast: Bool, point: DurablePoint?) -> [SegmentDamage] {
        // Bytes from here on are after the durable point (a 2.0 store's: after the last valid commit).
        let durableEnd: Int64? = switch point {
        case nil: isLast ? segment.committedEnd : nil
        case let point? where segment.number > point.segment: isLast ? 0 : nil
        case let point? where segment.number == point.segment: isLast ? point.end : nil
        default: nil
        }
        var out: [SegmentDamage] = []
        let rule = TornTailRule.durableEnd(durableEnd)
        for var problem in segment.problems {
            if rule.isTornTail(at: problem.offset, cutShort: problem.isTornTail) {
                if !problem.isTornTail { problem.kind = .tornTail("after the durable point: \(problem.kind)") }
            } else if case .tornTail(let why) = problem.kind {
                problem.kind = .segment(isLast ? "cut short at or before the durable point: \(why)" : "torn before the last segment: \(why)")
            }
            out.append(problem)
        }
        if let point, point.commit > 0, segment.number == point.segment, !out.contains(where: { !$0.isTornTail }) {
            let ends = zip(segment.commits, segment.indexLocations).contains { index, location in
                index.number == point.commit && location.offset + Int64(location.length) == point.end
            }
            if !ends {
                out.append(SegmentDamage(file: segment.name, offset: min(segment.committedEnd, point.end), commit: point.commit, kind: .segment(
                    "the durable point is commit \(point.commit) ending at byte \(point.end); the segment's valid commits end at byte \(segment.committedEnd)")))
            }
        }
        if !isLast, !segment.sealed, !out.contains(where: { !$0.isTornTail }) {
            out.append(SegmentDamage(file: segment.name, offset: segment.fileSize, kind: .segment(
                "ends at byte \(segment.fileSize) without its footer, before the last segment (cut short)")))
        }
        return out
    }
}
