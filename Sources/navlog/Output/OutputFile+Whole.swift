extension OutputFile {
    /// Writes `text` as the whole content of the file at `path` (created or truncated).
    static func write(_ text: String, to path: String) throws(Failure) {
        let file = try OutputFile(path: path)
        try file.write(Array(text.utf8))
        try file.close()
    }
}
