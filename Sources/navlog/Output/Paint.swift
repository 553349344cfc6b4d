extension StateTree.Style {
    /// `text` in the ANSI graphic rendition `code` (such as `"1"` bold or
    /// `"36"` cyan) when colouring, else `text` unchanged: the one place
    /// output is painted.
    func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
