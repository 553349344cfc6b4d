import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogTestSupport

/// The fault parts of `navlog-bench serve`: SIGKILL under load, keys,
/// a gzip bomb, slow clients. Each starts its own server on a fresh store.
enum ServeFaults {
    typealias Context = ServeBenchmark.Context

    // MARK: SIGKILL under load

    /// `--kills` (50) times: SIGKILL the server at a random moment (0.2–1 s
    /// apart) while 4 connections upload, restart it on the same store. Then
    /// every session answered 200 must be whole in the store, and it must verify.
    static func kills(_ context: Context) throws {
        let kills = try context.options.int("kills", default: 50)
        let store = context.freshStore("kill-store")
        let log = "\(context.work)/kill.log"
        var server = try NavlogServe.bench(navlog: context.navlog, store: store, log: log)
        let control = LoadControl(port: server.port)
        let batches = context.batches
        let hardDeadline = monotonicSeconds() + Double(kills) * 35 + 60
        var random = SeededGenerator(seed: context.options.seed)
        var killed = 0
        var restartFailure: BenchmarkFailure?
        let tally = runLoadThreads(4, meanwhile: {
            for _ in 0..<kills {
                usleep(UInt32(200_000 + random.next() % 800_000))
                server.stop(SIGKILL)
                killed += 1
                do throws(BenchmarkFailure) { server = try NavlogServe.bench(navlog: context.navlog, store: store, log: log) } catch {
                    restartFailure = error
                    break
                }
                control.port.store(server.port, ordering: .relaxed)
            }
            usleep(500_000)
            control.stopped.store(true, ordering: .relaxed)
        }) { i in
            var tally = LoadTally()
            var connection: HTTPConnection?
            var n = 0
            var pending: (id: String, template: Int, body: [UInt8])?
            while !control.stopped.load(ordering: .relaxed), monotonicSeconds() < hardDeadline, tally.requests < 1_000_000 {
                if pending == nil {
                    let id = "k\(i)-\(n)", template = (i * 7919 + n) % batches.count
                    pending = (id, template, batches.gzip(template, as: id))
                }
                guard let response = tally.upload(pending!.body, port: control.port.load(ordering: .relaxed), over: &connection,
                                                  timeoutSeconds: 5, errorPause: 20_000) else { continue }
                if response.status == 200 {
                    tally.acknowledged.append((pending!.id, batches.counts[pending!.template]))
                    pending = nil
                    n += 1
                } else {
                    usleep(5_000)
                }
            }
            return tally
        }
        let lastExit = server.stop(SIGTERM)
        if let restartFailure { throw restartFailure }
        let found = try sessionCounts(context, store: store)
        var lost = 0, acknowledgedEvents = 0
        for (id, count) in tally.acknowledged {
            acknowledgedEvents += count
            lost += max(0, count - (found[id] ?? 0))
        }
        var catChecked = 0, catLost = 0
        for (id, count) in tally.acknowledged.shuffledSample(20, using: &random) {
            let out = "\(context.work)/cat.ndjson"
            _ = try ChildProcess.runChecked(context.navlog, ["cat", store, "--session", id], stdoutPath: out)
            let lines = (readBytes(out) ?? []).split(separator: UInt8(ascii: "\n")).count
            catChecked += 1
            catLost += max(0, count - lines)
        }
        let verify = try ChildProcess.run(context.navlog, ["verify", store])
        var table = Table("figure", "measured", "target", "")
        table.add("SIGKILLs under load (restarted on the same store)", "\(killed)", "\(kills)", killed == kills ? "met" : "missed")
        table.add("upload requests answered 200", "\(tally.ok) of \(tally.requests) (+\(tally.errors) cut by a kill)", "", "")
        table.add("acknowledged events (sessions)", "\(acknowledgedEvents) (\(tally.acknowledged.count))", "", "")
        table.add("acknowledged events missing from the store", "\(lost)", "0", lost == 0 ? "met" : "missed")
        table.add("`navlog cat STORE --session ID` of \(catChecked) acknowledged sessions: events missing", "\(catLost)", "0",
                  catLost == 0 ? "met" : "missed")
        table.add("`navlog verify STORE`", verify.status == 0 ? "passes" : "exit \(verify.status)", "passes",
                  verify.status == 0 ? "met" : "missed")
        table.add("last server's exit on SIGTERM", "\(lastExit)", "0", lastExit == 0 ? "met" : "missed")
        table.print()
    }

    /// The store's sessions and their event counts (`navlog sessions STORE`).
    static func sessionCounts(_ context: Context, store: String) throws(BenchmarkFailure) -> [String: Int] {
        let out = "\(context.work)/sessions.tsv"
        _ = try ChildProcess.runChecked(context.navlog, ["sessions", store], stdoutPath: out)
        var counts: [String: Int] = [:]
        for line in (readTextFile(out) ?? "").split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count >= 2, let n = Int(fields[1]) { counts[String(fields[0])] = n }
        }
        return counts
    }

    // MARK: Keys

    /// With `--keys`: 100 uploads each with no key, a wrong key and a read
    /// key: all must be 401, and the store's event count must not move.
    static func keys(_ context: Context) throws {
        let keyFile = "\(context.work)/keys"
        guard let file = fopen(keyFile, "w") else { throw BenchmarkFailure("cannot write \(keyFile)") }
        fputs("write bench-write-key\nread bench-read-key\n", file)
        fclose(file)
        let store = context.freshStore("keys-store")
        let server = try NavlogServe.bench(navlog: context.navlog, store: store, keys: keyFile, log: "\(context.work)/keys.log")
        let valid = try HTTPConnection(port: server.port).request(
            "POST", "/v1/events", headers: uploadHeaders(key: "bench-write-key"), body: context.batches.gzip(0, as: "valid"))
        guard valid.status == 200 else { throw BenchmarkFailure("keys: a write key's upload got \(valid.status): \(valid.text)") }
        let before = try sessionCounts(context, store: store).values.reduce(0, +)
        var table = Table("request", "sent", "refused 401", "target", "")
        for (name, key) in [("no key", nil), ("wrong key", "not-a-key"), ("read key on upload", "bench-read-key")] as [(String, String?)] {
            var refused = 0, sent = 0
            var connection: HTTPConnection?
            for n in 0..<100 {
                do {
                    if connection == nil { connection = try HTTPConnection(port: server.port) }
                    let response = try connection!.request("POST", "/v1/events", headers: uploadHeaders(key: key),
                                                           body: context.batches.gzip(n + 1, as: "refused-\(sent)-\(name.count)"))
                    if response.status == 401 { refused += 1 }
                    if response.closes { connection = nil }
                } catch { connection = nil }
                sent += 1
            }
            table.add(name, "\(sent)", "\(refused)", "100 %", refused == sent ? "met" : "missed")
        }
        server.stop(SIGTERM)
        let after = try sessionCounts(context, store: store).values.reduce(0, +)
        table.add("events in the store before / after", "\(before) / \(after)", "", "unchanged", before == after ? "met" : "missed")
        table.print()
    }

    // MARK: Gzip bomb

    /// A gzip body that decompresses to `--bomb-mib` (1024) MiB of zeros,
    /// sent to a freshly started server: it must be refused (413) with the
    /// server's peak RSS under 64 MiB.
    static func bomb(_ context: Context) throws {
        let bombMiB = try context.options.int("bomb-mib", default: 1024)
        let body = GzipBody.bomb(decompressing: bombMiB << 20)
        let store = context.freshStore("bomb-store")
        let server = try NavlogServe.bench(navlog: context.navlog, store: store, log: "\(context.work)/bomb.log")
        usleep(300_000)
        let baseline = server.peakRSS
        let start = monotonicSeconds()
        var outcome: String
        do {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: 60)
            do {
                try connection.transmit(HTTPConnection.head("POST", "/v1/events", headers: uploadHeaders(key: nil), bodyCount: body.count) + body)
            } catch {}  // the server may answer and close before it has read the whole body
            outcome = "\(try connection.readResponse().status)"
        } catch { outcome = "\(error)" }
        let seconds = monotonicSeconds() - start
        let peak = server.peakRSS
        server.stop(SIGTERM)
        var table = Table("figure", "measured", "target", "")
        table.add("answer to a \(bombMiB) MiB gzip bomb (\(format(Double(body.count) / 1048576, digits: 2)) MiB sent)",
                  outcome, "413", outcome == "413" ? "met" : "missed")
        table.add("time to the answer", milliseconds(seconds), "", "")
        table.add("server peak RSS after a fresh start", mebibytes(baseline), "", "")
        table.add("server peak RSS after the bomb", mebibytes(peak), "< 64 MiB", peak < 64 << 20 ? "met" : "missed")
        table.print()
    }
}

extension Array {
    /// Up to `count` elements picked at random.
    func shuffledSample(_ count: Int, using random: inout SeededGenerator) -> [Element] {
        var copy = self
        for i in stride(from: copy.count - 1, to: 0, by: -1) { copy.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        return Array(copy.prefix(count))
    }
}
