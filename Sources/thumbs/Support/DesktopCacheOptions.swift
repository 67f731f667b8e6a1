import ArgumentParser
import Thumbs
import ThumbsFreedesktop

/// The options of the commands that can warm the desktop's thumbnail cache (freedesktop.org
/// Thumbnail Managing Standard), which file managers read.
struct DesktopCacheOptions: ParsableArguments {
    @Flag(help: "Also write each photo's thumbnails into the desktop's thumbnail cache, which file managers read.")
    var freedesktop = false

    @Flag(help: "Write only into the desktop's thumbnail cache, not into Thumbs' cache.")
    var freedesktopOnly = false

    @Option(
        name: .customLong("freedesktop-size"),
        help: ArgumentHelp(
            "A size to write: normal (128 px), large (256), x-large (512) or xx-large (1024); repeat for several. Default: normal and large.",
            valueName: "SIZE"))
    var sizes: [ThumbnailFlavor] = []

    @OptionGroup var folder: DesktopFolderOption

    /// Whether the desktop's cache is written.
    var isEnabled: Bool { freedesktop || freedesktopOnly || !sizes.isEmpty }

    /// The desktop's cache to write, when asked for.
    var cache: DesktopThumbnailCache? {
        guard isEnabled else { return nil }
        return DesktopThumbnailCache(
            folder: folder.path,
            flavors: sizes.isEmpty ? ThumbnailFlavor.defaults : sizes)
    }

    /// What a warm writes: the store's `renditions` when the store is open (it is not with
    /// --freedesktop-only), then the desktop's cache when asked for.
    func warmOutputs(store: ThumbnailStore?, renditions: [RenditionSpec]) -> [any WarmOutput] {
        let stored: [any WarmOutput] = store.map { [StoreWarmOutput(store: $0, renditions: renditions)] } ?? []
        return stored + (cache.map { [$0] } ?? [])
    }
}

/// Where the desktop's thumbnail cache is: `--freedesktop-folder`, else the standard's folder.
struct DesktopFolderOption: ParsableArguments {
    @Option(
        name: .customLong("freedesktop-folder"),
        help: ArgumentHelp(
            "The desktop's thumbnail folder (default: $XDG_CACHE_HOME/thumbnails, else ~/.cache/thumbnails).",
            valueName: "DIR"))
    var folder: String?

    var path: String { folder ?? DesktopThumbnailCache.defaultFolder() }
}
