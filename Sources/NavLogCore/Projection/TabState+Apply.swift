/// The tab rules (the iOS 18 tab model in docs/tabs.md):
/// what `tabs.define`, `tabs.customize`, `tab.select` and `tab.visibility`
/// do to a scene's ``TabState``.
extension TabState {
    /// `tab.select`: appends a new tab to the order; selecting a hidden tab
    /// keeps it hidden and is a `select-hidden` anomaly.
    mutating func select(_ tab: String) -> AnomalyKind? {
        if !order.contains(tab) {
            // Room for a tab bar's tabs at the first (growing from one allocates again at 2 and 4).
            if order.capacity == 0 { order.reserveCapacity(8) }
            order.append(tab)
        }
        selected = tab
        return hidden.contains(tab) ? .selectHidden : nil
    }

    /// `tabs.define`: the order exactly (later duplicates dropped), then any
    /// tab of the given `sections` or the given `searchTab` that it leaves
    /// out (a `Tab` inside a `TabSection` is a tab of the TabView); hidden
    /// tabs not in it are forgotten; the selection is kept.
    ///
    /// `sections` and `searchTab` replace the earlier ones when given; when
    /// left out, the earlier sections are kept without the tabs the new
    /// order drops, and the earlier search tab is kept while it is in the
    /// order.
    mutating func define(_ tabs: [String], sections: [TabSection]? = nil, searchTab: String? = nil) {
        order = Self.uniqued(tabs)
        if let sections {
            for section in sections {
                for tab in section.tabs where !order.contains(tab) { order.append(tab) }
            }
            self.sections = sections
        } else if let kept = self.sections {
            self.sections = kept.map { TabSection(name: $0.name, tabs: $0.tabs.filter(order.contains)) }
        }
        if let searchTab {
            if !order.contains(searchTab) { order.append(searchTab) }
            self.searchTab = searchTab
        } else if let kept = self.searchTab, !order.contains(kept) {
            self.searchTab = nil
        }
        if !hidden.isEmpty {
            hidden = hidden.filter { order.contains($0) }
        }
    }

    /// `tabs.customize`, the user's own customization: the order becomes
    /// `order` (later duplicates dropped), then the tabs of `hidden` it
    /// leaves out, then the tabs of the old order it names nowhere, as they
    /// were. A tab it names (in either list) is hidden exactly when it is
    /// in `hidden`; a tab it does not name keeps its visibility. The
    /// selection is kept, even when it is now hidden (no anomaly: hiding
    /// the tab the user is on is the user's own doing). Sets ``customized``.
    mutating func customize(order newOrder: [String], hidden newHidden: [String]) {
        var next = Self.uniqued(newOrder)
        for tab in newHidden where !next.contains(tab) { next.append(tab) }
        let named = Set(next)
        for tab in order where !named.contains(tab) { next.append(tab) }
        hidden = hidden.filter { !named.contains($0) }.union(newHidden)
        order = next
        customized = true
    }

    /// `tab.visibility`: a tab not in the order is appended to it, so every
    /// hidden tab is in the order.
    mutating func setHidden(_ tab: String, _ isHidden: Bool) {
        if !order.contains(tab) { order.append(tab) }
        if isHidden { hidden.insert(tab) } else { hidden.remove(tab) }
    }

    /// The strings in order, each kept at its first occurrence.
    static func uniqued(_ items: [String]) -> [String] {
        if items.count <= 16 {
            // Mostly there is no duplicate: then the items are the order as they are (no copy).
            if !items.indices.contains(where: { i in items[..<i].contains(items[i]) }) { return items }
            var out: [String] = []
            out.reserveCapacity(items.count)
            for item in items where !out.contains(item) { out.append(item) }
            return out
        }
        var seen = Set<String>(minimumCapacity: items.count)
        return items.filter { seen.insert($0).inserted }
    }
}
