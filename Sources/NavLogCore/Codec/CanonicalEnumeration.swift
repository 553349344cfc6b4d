// Codec/: Event lines read and written: the fast path for canonical lines, the general parser, the canonical writer, the per-kind field table.

/// An enumeration written as one of its raw values, with their bytes at hand.
protocol CanonicalEnumeration: RawRepresentable, CaseIterable where RawValue == String {
    /// Each case with its raw value's UTF-8 bytes.
    static var names: [([UInt8], Self)] { get }
}

extension CanonicalEnumeration {
    /// Each case with its raw value's UTF-8 bytes.
    static func namesOfAllCases() -> [([UInt8], Self)] { allCases.map { (Array($0.rawValue.utf8), $0) } }
}

extension SplitColumn: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension SplitVisibility: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension ModalStyle: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension SizeClass: CanonicalEnumeration {
    static let names = namesOfAllCases()
}

extension TabPresentation: CanonicalEnumeration {
    static let names = namesOfAllCases()
}
