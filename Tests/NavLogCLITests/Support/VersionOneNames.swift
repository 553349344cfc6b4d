import NavLogStore

/// The file name a version-1 store gives session `id`'s log
/// (schemas/store.md): only a directory of such names is a version-1 store.
func v1Log(_ id: String) -> String { VersionOneStore.fileName(forSession: id) }
