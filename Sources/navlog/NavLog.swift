import ArgumentParser

@main
struct NavLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navlog",
        abstract: "Event-sourced app navigation: record, time-travel, diff, bisect, funnels.",
        version: "0.1.0",
        subcommands: [Generate.self]
    )
}
