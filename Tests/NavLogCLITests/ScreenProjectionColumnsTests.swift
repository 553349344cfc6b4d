import Foundation
import Testing
import NavLogTestSupport

/// funnel and paths read a store's screen projection from its columns (each
/// block's names matched once, rows as ids): they answer what the events
/// answer, for the cases the columns treat apart.
@Suite struct ScreenProjectionColumnsTests {
    @Test("Strict order, exclusions, --by session, 64 steps, a name in few blocks, --after/--before: the same with the projection")
    func columnsAnswerAsEvents() throws {
        let (dir, _, store) = try generatedInputs()
        _ = dir
        // A screen seen in one session only: in the dictionary of few blocks, not of the others.
        let screens = navlog("export", "screens", store)
        var sessionsOf: [String: Set<Substring>] = [:]
        for line in screens.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.count == 5 { sessionsOf[String(fields[4]), default: []].insert(fields[0]) }
        }
        let rare = try #require(sessionsOf.filter { $0.value.count == 1 && !$0.key.contains("*") }.keys.sorted().first)
        let questions: [[String]] = [
            ["funnel", store, "--step", "*", "--step", rare, "--format", "csv"],
            ["funnel", store, "--order", "strict", "--step", "*", "--step", "mark:*", "--step", "*", "--exclude", "url:*", "--format", "csv"],
            ["funnel", store, "--step", "*", "--step", "*", "--by", "session", "--format", "csv"],
            ["funnel", store] + Array(repeating: ["--step", "*"], count: 64).flatMap { $0 } + ["--format", "csv"],
            ["paths", store, "--after", "*", "--depth", "2", "--top", "1000", "--format", "csv"],
            ["paths", store, "--before", "*", "--depth", "4", "--top", "1000", "--format", "csv"],
        ]
        let before = questions.map { navlog($0) }
        #expect(navlog("reindex", store).status == 0)
        let after = questions.map { navlog($0) }
        for (k, question) in questions.enumerated() {
            #expect(before[k].status == 0 && after[k].status == 0, "\(question.prefix(6)) \(after[k].stderr)")
            #expect(after[k].stdout == before[k].stdout, "\(question.prefix(6))")
        }
        // The rare screen is reached by its one session; every session is its own segment.
        #expect(after[0].stdout.contains("\n2,\(rare),1,"), "\(after[0].stdout)")
        #expect(after[2].stdout.split(separator: "\n").count == 1 + 2 * 40, "\(after[2].stdout)")
        #expect(after[4].stdout.contains("(end)") && after[5].stdout.contains("(start)"))
    }
}
