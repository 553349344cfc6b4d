/// A key read from a terminal in raw mode, decoded from its bytes.
enum TerminalKey: Equatable {
    /// A byte that is not one of the keys below: ASCII text, or one byte of
    /// a UTF-8 character (typed text is collected byte by byte).
    case byte(UInt8)
    case enter, escape, backspace, up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl-C (raw mode turns it into a byte, not a signal).
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-U: clear the line being typed.
    case clearLine
    /// Ctrl-Z (raw mode turns it into a byte): suspend.
    case suspend
    /// An escape sequence or control byte with no use here.
    case unknown
    /// Not a key: the window changed size.
    case resize

    /// The cursor key a CSI or SS3 sequence ends with (`ESC [ A`, `ESC O A`).
    private static func cursorKey(_ finalByte: UInt8) -> TerminalKey {
        switch finalByte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return .unknown
        }
    }

    /// Decodes the first key in `bytes` and removes its bytes; `nil` when
    /// `bytes` is empty or holds only the start of an escape sequence and
    /// more may follow (`final` false). With `final`, a lone ESC is the
    /// Escape key and a cut sequence is ``unknown``.
    static func decode(_ bytes: inout [UInt8], final: Bool) -> TerminalKey? {
        guard let first = bytes.first else { return nil }
        if first != 0x1B {
            bytes.removeFirst()
            switch first {
            case 0x0D, 0x0A: return .enter
            case 0x7F, 0x08: return .backspace
            case 0x03: return .interrupt
            case 0x04: return .endOfInput
            case 0x15: return .clearLine
            case 0x1A: return .suspend
            case 0x00..<0x20: return .unknown
            default: return .byte(first)
            }
        }
        guard bytes.count >= 2 else {
            if final { bytes.removeFirst(); return .escape }
            return nil
        }
        switch bytes[1] {
        case UInt8(ascii: "["):
            // CSI: parameter and intermediate bytes (0x20–0x3F), then a final byte.
            var i = 2
            while i < bytes.count, (0x20...0x3F).contains(bytes[i]) { i += 1 }
            guard i < bytes.count else {
                if final { bytes.removeAll(); return .unknown }
                return nil
            }
            let parameters = String(decoding: bytes[2..<i], as: UTF8.self)
            let finalByte = bytes[i]
            bytes.removeFirst(i + 1)
            guard finalByte == UInt8(ascii: "~") else { return cursorKey(finalByte) }
            switch parameters {
            case "1", "7": return .home
            case "4", "8": return .end
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .unknown
            }
        case UInt8(ascii: "O"):
            // SS3: application-mode cursor keys.
            guard bytes.count >= 3 else {
                if final { bytes.removeAll(); return .unknown }
                return nil
            }
            let key = bytes[2]
            bytes.removeFirst(3)
            return cursorKey(key)
        default:
            // ESC and a key (Alt-key): nothing here uses it.
            bytes.removeFirst(2)
            return .unknown
        }
    }
}
