import NavLogStore

/// The viewer's files (HTML, CSS, JavaScript modules): the target's
/// resource folder `Assets`, which SwiftPM installs beside the executable (`navlog-serve`)
/// (`navlog_NavLogServer.resources/Assets` on Linux, in
/// `navlog_NavLogServer.bundle` on macOS). Read once when the server
/// starts and served from memory by name: no part of a request's path
/// ever reaches the file system. `Bundle.module` is not used: it stops
/// the program when the folder is absent; here a missing folder is a
/// message the page routes answer with.
struct ViewerAssets: Sendable {
    /// One file: its bytes and its `Content-Type`.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    /// The files by name (the folder is flat).
    let files: [String: File]
    /// Why there are no files, when the folder was not found.
    let missing: String?

    /// The resource folder's names beside the executable, tried in order.
    static let candidates = [
        "navlog_NavLogServer.resources/Assets",
        "navlog_NavLogServer.bundle/Assets",
        "navlog_NavLogServer.bundle/Contents/Resources/Assets",
    ]

    /// The page every viewer route answers with (the script reads the address).
    static let shell = "index.html"

    /// The shell's mark that the server asks no key; ``shellPage(keys:)`` turns it on for a server with keys
    /// (the page then shows "Sign out").
    static let keysOff = Array(#"data-keys="off""#.utf8)
    static let keysOn = Array(#"data-keys="on""#.utf8)

    /// The shell page, marked `data-keys="on"` when the server asks for keys.
    func shellPage(keys: Bool) -> File? {
        guard let file = files[Self.shell] else { return nil }
        guard keys, let range = file.bytes.firstRange(of: Self.keysOff) else { return file }
        var bytes = file.bytes
        bytes.replaceSubrange(range, with: Self.keysOn)
        return File(bytes: bytes, contentType: file.contentType)
    }

    /// The most bytes of one file.
    static let fileLimit = 1 << 20

    /// Finds and reads the folder beside the running executable.
    static func load() -> ViewerAssets {
        guard let directory = ExecutablePath.directory else {
            return ViewerAssets(files: [:], missing: "the viewer's files: the system does not say where navlog-serve's executable is")
        }
        for candidate in candidates {
            let folder = directory + "/" + candidate
            if let assets = ViewerAssets(folder: folder) { return assets }
        }
        return ViewerAssets(files: [:], missing: "the viewer's files are missing: no \(candidates[0]) beside the executable in \(directory) "
                                + "(the folder is built with navlog-serve and travels with it)")
    }

    private init(files: [String: File], missing: String?) {
        self.files = files
        self.missing = missing
    }

    /// The files of `folder`, or `nil` when it has no shell page.
    private init?(folder: String) {
        guard let names = try? DirectoryListing.names(in: folder), names.contains(Self.shell) else { return nil }
        var files: [String: File] = [:]
        for name in names {
            guard let type = Self.contentType(of: name), let bytes = try? SmallFile.read(folder + "/" + name, limit: Self.fileLimit) else {
                continue
            }
            files[name] = File(bytes: bytes, contentType: type)
        }
        self.init(files: files, missing: nil)
    }

    /// The `Content-Type` of a file by its extension; `nil` for a kind the viewer does not serve.
    static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...] {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        default: return nil
        }
    }
}
