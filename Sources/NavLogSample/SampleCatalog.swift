/// The content of the recipe app that ``SampleGenerator`` pretends to record:
/// categories, recipes, searches, settings, modals, devices and deep links.
///
/// Lists are ordered by popularity where that matters (earlier entries are
/// picked more often), so that generated sessions have a realistic long tail.
enum SampleCatalog {
    struct Recipe: Sendable {
        let value: RouteValue
        let category: Int
        /// How many `Step` screens the recipe has.
        let steps: Int
        /// The price of its ingredient kit, in cents.
        let priceCents: Int
        let deepLink: String
        let universalLink: String
    }

    struct Category: Sendable {
        let value: RouteValue
        /// Indices into ``recipes``, most popular first.
        let recipes: [Int]
        let weight: Int
        let deepLink: String
    }

    struct Search: Sendable {
        let value: RouteValue
        let query: String
        /// The category whose recipes the search finds.
        let category: Int
        let deepLink: String
    }

    struct SettingsSection: Sendable {
        let value: RouteValue
        let options: [RouteValue]
    }

    /// A modal the app presents: its id, style, and whether it hosts a
    /// NavigationStack (with the modal's id as the stack id).
    struct Modal: Sendable {
        let id: String
        let style: ModalStyle
        let flow: ModalFlow
    }

    /// What a modal's own NavigationStack shows.
    enum ModalFlow: Sendable {
        case none, compose, settings, filters, cart, cooking
    }

    // MARK: Recipes

    private static let recipeTable: [(category: String, weight: Int, recipes: [String])] = [
        ("desserts", 30, ["apple-pie", "brownies", "tiramisu", "lemon-tart", "cheesecake", "chocolate-mousse"]),
        ("pasta", 18, ["carbonara", "lasagna", "pesto-pasta", "cacio-e-pepe", "bolognese"]),
        ("quick-dinners", 14, ["tacos", "fried-rice", "quesadillas", "stir-fry-noodles"]),
        ("breakfast", 12, ["pancakes", "shakshuka", "overnight-oats", "french-toast", "granola"]),
        ("baking", 10, ["banana-bread", "sourdough", "focaccia", "cinnamon-rolls", "croissants"]),
        ("soups", 8, ["tomato-soup", "ramen", "minestrone", "pho", "lentil-soup"]),
        ("salads", 6, ["caesar-salad", "greek-salad", "panzanella", "nicoise"]),
        ("vegan", 5, ["chana-masala", "falafel", "buddha-bowl", "tofu-stir-fry"]),
    ]

    static let recipes: [Recipe] = {
        var out: [Recipe] = []
        for (c, row) in recipeTable.enumerated() {
            for id in row.recipes {
                let n = out.count
                out.append(Recipe(
                    value: RouteValue(type: "Recipe", id: id), category: c,
                    steps: 3 + (n * 7) % 6, priceCents: 899 + (n * 137) % 1200,
                    deepLink: "recipes://recipe/" + id,
                    universalLink: "https://recipes.example.com/r/" + id))
            }
        }
        return out
    }()

    static let categories: [Category] = {
        var out: [Category] = []
        var next = 0
        for row in recipeTable {
            let ids = Array(next..<(next + row.recipes.count))
            next += row.recipes.count
            out.append(Category(
                value: RouteValue(type: "Category", id: row.category), recipes: ids,
                weight: row.weight, deepLink: "recipes://category/" + row.category))
        }
        return out
    }()

    static let categoryWeights: [Int] = categories.map(\.weight)

    /// Popularity of a recipe by its rank within its category.
    static let rankWeights: [Int] = [10, 6, 4, 3, 2, 1]

    /// Recipe index by id, for finding a step count from a route value.
    static let recipeByID: [String: Int] = {
        var out: [String: Int] = [:]
        for (i, r) in recipes.enumerated() { out[r.value.id!] = i }
        return out
    }()

    /// `Step/1` … `Step/9`.
    static let steps: [RouteValue] = (1...9).map { RouteValue(type: "Step", id: String($0)) }

    // MARK: Searches

    static let searches: [Search] = [
        ("chocolate", "desserts"), ("pasta", "pasta"), ("quick", "quick-dinners"),
        ("chicken", "quick-dinners"), ("cake", "desserts"), ("bread", "baking"),
        ("soup", "soups"), ("vegan", "vegan"), ("salad", "salads"), ("brunch", "breakfast"),
    ].map { query, category in
        Search(
            value: RouteValue(type: "Search", id: query), query: query,
            category: recipeTable.firstIndex { $0.category == category }!,
            deepLink: "recipes://search?q=" + query)
    }

    // MARK: Settings

    static let settingsSections: [SettingsSection] = [
        ("account", ["email", "password", "subscription"]),
        ("notifications", ["push", "email-digest"]),
        ("units", ["metric", "imperial"]),
        ("privacy", ["tracking", "data-export"]),
        ("about", ["licenses"]),
    ].map { section, options in
        SettingsSection(
            value: RouteValue(type: "Settings", id: section),
            options: options.map { RouteValue(type: "SettingsOption", id: $0) })
    }

    // MARK: Modal content

    /// The compose sheet's wizard, in order.
    static let composePages: [RouteValue] = ["ingredients", "steps", "photo", "review"].map {
        RouteValue(type: "Compose", id: $0)
    }

    static let filters: [RouteValue] = ["cuisine", "diet", "time", "difficulty"].map {
        RouteValue(type: "Filter", id: $0)
    }

    static let checkout = RouteValue(type: "Checkout")
    static let payment = RouteValue(type: "Payment")

    /// Sections of a recipe shown in a split view's detail column.
    static let sections: [RouteValue] = ["ingredients", "method", "nutrition", "reviews"].map {
        RouteValue(type: "Section", id: $0)
    }

    static let compose = Modal(id: "compose", style: .sheet, flow: .compose)
    static let settings = Modal(id: "settings", style: .sheet, flow: .settings)
    static let filtersSheet = Modal(id: "filters", style: .sheet, flow: .filters)
    static let cart = Modal(id: "cart", style: .sheet, flow: .cart)
    static let cookMode = Modal(id: "cook-mode", style: .fullScreenCover, flow: .cooking)
    static let photoPicker = Modal(id: "photo-picker", style: .sheet, flow: .none)
    static let discardDraft = Modal(id: "discard-draft", style: .alert, flow: .none)
    static let removeFavorite = Modal(id: "remove-favorite", style: .alert, flow: .none)
    static let networkError = Modal(id: "network-error", style: .alert, flow: .none)
    static let shareOptions = Modal(id: "share-options", style: .confirmationDialog, flow: .none)
    static let timer = Modal(id: "timer", style: .popover, flow: .none)
    static let nutrition = Modal(id: "nutrition", style: .inspector, flow: .none)

    /// Every modal, by a small value that actions can carry cheaply.
    enum ModalID: Int, CaseIterable, Sendable {
        case compose, settings, filters, cart, cookMode, photoPicker, discardDraft
        case removeFavorite, networkError, shareOptions, timer, nutrition

        var modal: Modal { SampleCatalog.modals[rawValue] }
    }

    /// Modals in ``ModalID`` order.
    static let modals: [Modal] = ModalID.allCases.map { id in
        switch id {
        case .compose: compose
        case .settings: settings
        case .filters: filtersSheet
        case .cart: cart
        case .cookMode: cookMode
        case .photoPicker: photoPicker
        case .discardDraft: discardDraft
        case .removeFavorite: removeFavorite
        case .networkError: networkError
        case .shareOptions: shareOptions
        case .timer: timer
        case .nutrition: nutrition
        }
    }

    static func modal(_ id: String) -> Modal? { modals.first { $0.id == id } }

    // MARK: Tabs and layout

    static let phoneTabs = ["home", "search", "favorites", "settings"]
    static let padTabs = ["home", "browse", "search", "favorites", "settings"]
    /// The iPad sidebar's sections (`TabSection`) and search tab (`Tab(role: .search)`),
    /// with the tab model of iOS 18 and later.
    static let padSections = [TabSection(name: "Discover", tabs: ["home", "browse"]),
                              TabSection(name: "Library", tabs: ["favorites"])]
    static let padSearchTab = "search"

    // MARK: Devices

    static let phoneModels = ["iPhone17,1", "iPhone16,2", "iPhone16,1", "iPhone15,4", "iPhone15,2", "iPhone14,5"]
    static let phoneSystems = ["iOS 18.2", "iOS 18.1", "iOS 17.6", "iOS 17.5"]
    static let padModels = ["iPad16,3", "iPad14,3", "iPad13,16", "iPad13,18"]
    static let padSystems = ["iPadOS 18.2", "iPadOS 18.1", "iPadOS 17.6"]
    /// Popularity by rank, for models and systems.
    static let deviceWeights = [8, 6, 4, 3, 2, 1]

    static let locales = ["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "ja_JP", "pt_BR"]
    static let linkSources = ["push", "universal-link", "widget", "spotlight", "email"]

    static let cartLink = "recipes://cart"
}
