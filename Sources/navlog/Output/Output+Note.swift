extension Output {
    /// Says on standard error, after the result, why the result is empty:
    /// what matched nothing (a step, a filter, a field). The result on
    /// standard output and the exit status are as they would be without it.
    static func nothingMatched(_ what: String) {
        flushStandardOutput()
        error(what)
    }
}
