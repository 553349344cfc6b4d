/// How navlog spells a directory path it was given: one trailing `/` is
/// dropped (`store/` names `store`), except for the root `/` itself.
public enum DirectoryPath {
    /// `path` without its one trailing slash, or unchanged.
    public static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
