import Testing
import NavLogCore

/// Globs: only `*` is special; whole-string, case-sensitive (docs/analytics.md).
@Suite("GlobPattern")
struct GlobPatternTests {
    static let cases: [(pattern: String, text: String, matches: Bool)] = [
        ("Recipe/*", "Recipe/apple-pie", true),
        ("Recipe/*", "Recipe/", true),
        ("Recipe/*", "Recipe", false),
        ("Recipe/*", "recipe/apple-pie", false),
        ("Recipe/*", "MyRecipe/x", false),
        ("*", "", true),
        ("*", "anything", true),
        ("", "", true),
        ("", "a", false),
        ("tab:search", "tab:search", true),
        ("tab:search", "tab:search2", false),
        ("*pie", "Recipe/apple-pie", true),
        ("*pie", "Recipe/apple-pies", false),
        ("stack.*", "stack.popToRoot", true),
        ("*.*", "mark", false),
        ("a*b*c", "abc", true),
        ("a*b*c", "aXbYbZc", true),
        ("a*b*c", "acb", false),
        ("a*a", "a", false),
        ("a*a", "aa", true),
        ("**", "x", true),
        ("a?", "ab", false),
        ("a?", "a?", true),
        ("[ab]", "a", false),
        ("Recette/é*", "Recette/éclair", true),
        ("*é", "café", true),
        ("*e", "café", false),
    ]

    @Test(arguments: 0..<cases.count)
    func matching(index: Int) {
        let (pattern, text, expected) = Self.cases[index]
        #expect(GlobPattern(pattern).matches(text) == expected, "\(pattern) ~ \(text)")
    }

    @Test func describesItselfAsWritten() {
        #expect(GlobPattern("Recipe/*").description == "Recipe/*")
    }
}
