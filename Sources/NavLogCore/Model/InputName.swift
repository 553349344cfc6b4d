/// How an input path is named in output and messages: standard input
/// (`-`) is `<stdin>`, any other path as given.
///
/// ```swift
/// InputName.shown("-")          // "<stdin>"
/// InputName.shown("a.navlog")   // "a.navlog"
/// ```
public enum InputName {
    public static func shown(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
