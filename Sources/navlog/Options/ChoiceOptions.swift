import ArgumentParser
import NavLogCore
import NavLogSample
import NavLogStore

// Options with a fixed set of values. argument-parser refuses any other
// value with a usage error that lists the allowed ones, offers them as
// shell completions and lists them in --help.

/// `funnel --format`.
enum FunnelFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json, svg
}

/// `paths --format`.
enum PathsFormat: String, ExpressibleByArgument, CaseIterable {
    case table, csv, json
}

/// `export screens|events --format`.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case csv, ndjson
}

/// `export --partition-by`: how part files are split into directories.
enum ExportPartition: String, ExpressibleByArgument, CaseIterable {
    case day
}

/// `bisect --align`: compare by event position or by seq.
enum BisectAlignment: String, ExpressibleByArgument, CaseIterable {
    case position, seq
}

/// `funnel --order`.
extension FunnelOrder: ExpressibleByArgument {}

/// `import csv --epoch`.
extension CSVEventConverter.EpochUnit: ExpressibleByArgument {}

/// `generate --style`.
extension SampleLineStyle: ExpressibleByArgument {}
