// navlog-serve/: The collector's program, which `navlog serve` runs in its own process, so that no other command loads Hummingbird.
import ArgumentParser
import NavLogCore
import NavLogServeCommand
import NavLogServer
import NavLogStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The collector's program: what `navlog serve` runs in its own place (the
/// same process, arguments, signals and standard streams), installed beside
/// `navlog` with the viewer's files. Keeping Hummingbird and NIO here keeps
/// them out of every other command's start-up.
@main
struct NavLogServe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navlog-serve",
        abstract: ServeHelp.abstract,
        discussion: ServeHelp.discussion
    )

    @OptionGroup var options: ServeOptions

    /// A failure of the serve command: one line on stderr, exit 2 (usage or I/O trouble).
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Parses, serves until stopped, and maps every outcome to the exit
    /// status of docs/commands.md, as `navlog` does: errors are one line on
    /// stderr, help goes to stdout.
    static func main() {
        do {
            var command = try parseAsRoot(Array(CommandLine.arguments.dropFirst()))
            if let problem = OpenFileLimit.problem() { throw Failure(problem) }
            try command.run()
            terminate(0)
        } catch let failure as Failure {
            report(failure.message)
        } catch {
            guard exitCode(for: error) != .success else {
                print(fullMessage(for: error))
                terminate(0)
            }
            let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            report("\(message.isEmpty ? "usage error" : message) (see 'navlog-serve --help')")
        }
    }

    /// Prints `navlog: <message>` as one line on standard error (control
    /// characters escaped, as every navlog error is) and exits 2.
    static func report(_ message: String) -> Never {
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        writeStandardError("navlog: " + ReadableText.escaped(oneLine) + "\n")
        terminate(2)
    }

    static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = DescriptorWrite.all(UnsafeRawBufferPointer($0), to: 2) }
    }

    func run() throws {
        guard let address = ListenAddress(options.listen) else {
            throw Failure("--listen \(options.listen): expected HOST:PORT, such as 127.0.0.1:8080")
        }
        guard options.queueLimit >= 0 else { throw Failure("--queue-limit \(options.queueLimit): expected 0 or more") }
        var ring: KeyRing?
        if let keys = options.keys {
            let bytes: [UInt8]
            do { bytes = try SmallFile.read(keys) } catch { throw Failure(error.description) }
            do { ring = try KeyRing(text: String(decoding: bytes, as: UTF8.self)) } catch {
                throw Failure("\(keys): \(error)")
            }
            if ring?.isEmpty == true { throw Failure("\(keys): no key in it") }
        }
        do {
            var configuration = try CollectorServer.Configuration(store: options.store, address: address, keys: ring)
            configuration.queueCapacity = options.queueLimit
            try CollectorServer.runBlocking(configuration) { url in
                Self.writeStandardError("listening on \(url)\n")
            }
        } catch {
            throw Failure(error.description)
        }
    }
}

/// The C library's `exit`, which `ParsableCommand`'s own `exit(withError:)` shadows.
func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}
