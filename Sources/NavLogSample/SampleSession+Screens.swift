import NavLogCore

/// Sessions as short page flows over a fixed number of screens
/// (``SampleGenerator/Options/screens``), and heavy-tailed session lengths
/// (``SampleGenerator/Options/heavyTailedLengths``).
///
/// A flow selects the `home` tab first, then moves between tabs, pushes
/// and pops category, recipe and step screens on the selected tab's stack,
/// and marks `add-to-cart` and `purchase` now and then. Every screen view
/// is one of the N screens of ``flowScreens(_:)``: `tab:<id>` (the tab's
/// stack empty) or a pushed value.
extension SampleSession {
    /// The N screens of a flow: tabs, categories, recipes and steps, in the
    /// repeating pattern tab, category, recipe, step, recipe (at most 4 tabs:
    /// home, search, favorites, settings; then the pattern goes on without).
    static func flowScreens(_ count: Int) -> (tabs: [String], values: [RouteValue]) {
        var tabs: [String] = [], values: [RouteValue] = []
        var categories = 0, recipes = 0, steps = 0
        var k = 0
        while tabs.count + values.count < count {
            switch k % 5 {
            case 0 where tabs.count < SampleCatalog.phoneTabs.count:
                tabs.append(SampleCatalog.phoneTabs[tabs.count])
            case 1:
                values.append(SampleCatalog.categories[categories % SampleCatalog.categories.count].value)
                categories += 1
            case 2, 4:
                values.append(SampleCatalog.recipes[recipes % SampleCatalog.recipes.count].value)
                recipes += 1
            case 3:
                values.append(SampleCatalog.steps[steps % SampleCatalog.steps.count])
                steps += 1
            default:
                break
            }
            k += 1
        }
        return (tabs, values)
    }

    /// The next event of a flow over `count` screens.
    mutating func flow(over count: Int) {
        let (tabs, values) = Self.flowScreens(count)
        let scene = scenes[active]
        guard let tab = scene.selected else { return emit(.tabSelect(tab: tabs[0]), gap: .quick) }
        let depth = scene.path(tab).count
        let r = random.int(below: 100)
        if r < 20, tabs.count > 1 {
            let others = tabs.filter { $0 != tab }
            return emit(.tabSelect(tab: random.pick(others)), gap: .think)
        }
        if r < 35, depth > 0 {
            return emit(.stackPop(stack: tab, count: nil), gap: .think)
        }
        if r < 42 { return emit(.mark(label: "add-to-cart"), gap: .think) }
        if r < 45 { return emit(.mark(label: "purchase"), gap: .think) }
        // Earlier screens are picked more often, as popular pages are.
        let pick = Swift.min(random.int(below: values.count), random.int(below: values.count))
        emit(.stackPush(stack: tab, value: values[pick]), gap: .think)
    }

    /// A heavy-tailed session length: 1 for a third of the sessions, 2 for
    /// 12 %, 3 for 10 % (the median), else from 4 up, each doubling of the
    /// range 30 % as likely as the one before, up to 999.
    static func heavyTailedLength(_ random: inout SeededRandom) -> Int {
        let r = random.int(below: 1000)
        if r < 333 { return 1 }
        if r < 453 { return 2 }
        if r < 553 { return 3 }
        var low = 4
        while low < 512, random.percent(30) { low *= 2 }
        return random.int(in: low...Swift.min(999, 2 * low - 1))
    }
}
