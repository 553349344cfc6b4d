// The README's "Record from your app" sample: the region between the
// markers is compared with the README's block (ReadmeSampleTests), so the
// sample in the README is code that compiles and runs.
import Foundation
import NavLogRecorder

// README-SAMPLE-BEGIN
import NavLogCore

enum Route: Hashable, RouteConvertible {
    case category(String), recipe(String)

    var routeValue: RouteValue {
        switch self {
        case .category(let id): RouteValue(type: "Category", id: id)
        case .recipe(let id): RouteValue(type: "Recipe", id: id)
        }
    }
}

func recordASession(logPath: String) throws {
    let recorder = try NavigationRecorder(
        path: logPath, session: UUID().uuidString,
        app: ["version": .string("2.3.0")], device: ["model": .string("iPhone15,2")])

    recorder.tabsDefined(["home", "search", "settings"])
    recorder.tabChanged(to: "home")

    // In .onChange(of: path) of a NavigationStack(path: $path):
    var path: [Route] = [.category("desserts")]
    recorder.stackChanged("home", to: path)    // stack.push
    path.append(.recipe("apple-pie"))
    recorder.stackChanged("home", to: path)    // stack.push
    path.removeAll()
    recorder.stackChanged("home", to: path)    // stack.popToRoot

    recorder.presented("settings", style: .sheet)
    recorder.dismissed("settings")

    // In .onOpenURL: what the link causes carries the url.open's seq as `cause`.
    recorder.openedURL(URL(string: "recipes://recipe/crumble")!) {
        recorder.tabChanged(to: "search")
        recorder.stackChanged("search", to: [Route.recipe("crumble")])
    }
    recorder.marked("purchase", meta: ["amount": .string("12.99")])

    try recorder.flush()   // durable when it returns (e.g. on scenePhase .background)
    try recorder.close()
}
// README-SAMPLE-END
