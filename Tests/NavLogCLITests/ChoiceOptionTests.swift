import Testing

/// Options with a fixed set of values refuse any other with one line that
/// names the option and lists every allowed value (exit 2).
@Suite struct ChoiceOptionTests {
    @Test func aBadValueListsTheAllowedOnes() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        _ = dir
        let log = store + "/" + v1Log("s-a")
        let cases: [([String], String)] = [
            (["funnel", ndjson, "--step", "*", "--order", "sideways"], "'--order <mode>'. Please provide one of 'ordered' and 'strict'."),
            (["funnel", ndjson, "--step", "*", "--format", "xml"], "Please provide one of 'table', 'csv', 'json' or 'svg'."),
            (["paths", ndjson, "--format", "xml"], "Please provide one of 'table', 'csv' or 'json'."),
            (["export", "screens", ndjson, "--format", "xml"], "Please provide one of 'csv' and 'ndjson'."),
            (["bisect", log, log, "--align", "time"], "Please provide one of 'position' and 'seq'."),
            (["import", "csv", ndjson, "--store", store, "--session", "a", "--time", "t", "--event", "e", "--epoch", "ns"],
             "Please provide one of 's', 'ms' or 'us'."),
            (["append", log, "--durability", "soon"],
             "'--durability <policy>': give every-append, every-seal, on-flush or a number of milliseconds"),
        ]
        for (args, text) in cases {
            UsageErrorTests.expectUsage(args, "The value '\(args.last!)' is invalid for ")
            UsageErrorTests.expectUsage(args, text)
        }
    }
}
