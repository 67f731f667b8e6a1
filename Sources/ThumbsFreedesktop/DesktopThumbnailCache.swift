import Foundation
import ThumbsCore
import ThumbsPipeline
import ThumbsRendering
import ThumbsSupport

/// The desktop's thumbnail cache, as the freedesktop.org Thumbnail Managing Standard (0.9)
/// lays it out and GNOME Files, Nemo, Caja, Thunar, Dolphin and GIMP read it: under
/// `$XDG_CACHE_HOME/thumbnails` (`~/.cache/thumbnails` by default), one folder per size
/// (``ThumbnailFlavor``), each thumbnail a PNG named by the MD5 of its file's URI and carrying
/// that URI and the file's modification time, by which a reader knows whether it is current.
///
/// A file that cannot be thumbnailed gets a failure entry instead, in a folder of the program
/// that failed (`fail/thumbs-VERSION`), so that it is not tried again until it changes. GNOME's
/// thumbnail factory (GNOME Files, and the file managers built on it) reads no other program's
/// failures, only its own folder (`fail/gnome-thumbnail-factory`): a file whose content is
/// damaged gets an entry there too, so that they do not try it again either. A file of a format
/// Thumbs does not read gets none there: their thumbnailers may.
///
/// ```swift
/// let cache = DesktopThumbnailCache(folder: DesktopThumbnailCache.defaultFolder(), flavors: [.normal, .large])
/// try cache.write([normal, large], of: source)
/// ```
public struct DesktopThumbnailCache: Sendable {
    /// The cache's root: `thumbnails` in the user's cache folder.
    public let folder: String
    /// The sizes written; a thumbnail is current when every one of them is.
    public let flavors: [ThumbnailFlavor]
    /// The `Software` field of every thumbnail.
    public let software: String
    /// The folder, under `fail`, of this program's failure entries.
    public let failureFolderName: String

    public init(folder: String, flavors: [ThumbnailFlavor] = ThumbnailFlavor.defaults) {
        self.folder = folder
        self.flavors = flavors.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        software = "Thumbs \(ThumbsVersion.current)"
        failureFolderName = "thumbs-\(ThumbsVersion.current)"
    }

    /// `$XDG_CACHE_HOME/thumbnails` when that is an absolute path (the spec ignores a relative
    /// one), else `$HOME/.cache/thumbnails`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            return cacheHome + "/thumbnails"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/thumbnails"
    }

    /// Where the `flavor` thumbnail of the file `uri` names is.
    public func path(of uri: FileURI, flavor: ThumbnailFlavor) -> String {
        "\(folder)/\(flavor.folderName)/\(uri.md5).png"
    }

    /// Where this program's failure entry for the file `uri` names is.
    public func failurePath(of uri: FileURI) -> String {
        "\(folder)/fail/\(failureFolderName)/\(uri.md5).png"
    }

    /// Where GNOME's thumbnail factory looks for a failure entry of the file `uri` names.
    public func desktopFailurePath(of uri: FileURI) -> String {
        "\(folder)/fail/\(Self.desktopFailureFolderName)/\(uri.md5).png"
    }

    /// The failure folder of GNOME's thumbnail factory, the only one it reads.
    public static let desktopFailureFolderName = "gnome-thumbnail-factory"

    /// What the cache holds for `source` as it is now: every flavour current, a failure entry
    /// for this version of the file, or neither. A thumbnail a reader could not load (cut
    /// short, damaged) or that was made from another version of the file does not count.
    public func state(of source: ThumbnailSource) -> WarmOutputState {
        let current = flavors.allSatisfy { flavor in
            CacheFile.read(path(of: source.uri, flavor: flavor)).flatMap(PNGText.fields).map(source.isDescribed)
                ?? false
        }
        if current { return .current }
        let failed = CacheFile.read(failurePath(of: source.uri)).flatMap(PNGText.fields).map(source.isDescribed)
        return failed == true ? .failed : .missing
    }

    /// Writes the thumbnails of `source`, one PNG per flavour in the order of ``flavors``, each
    /// whole or not at all (written aside, then renamed over the old one), readable by the user
    /// alone; failure entries from an earlier version of the file go.
    public func write(_ thumbnails: [Thumbnail], of source: ThumbnailSource) throws(DesktopCacheError) {
        precondition(thumbnails.count == flavors.count, "one thumbnail per flavour")
        let fields = source.fields(software: software)
        for (flavor, thumbnail) in zip(flavors, thumbnails) {
            let tagged: [UInt8]
            do {
                tagged = try PNGText.inserting(fields, into: thumbnail.bytes)
            } catch {
                throw DesktopCacheError(path: path(of: source.uri, flavor: flavor), operation: "PNG", code: EINVAL)
            }
            try CacheFile.replace(path(of: source.uri, flavor: flavor), with: tagged)
        }
        CacheFile.remove(failurePath(of: source.uri))
        CacheFile.remove(desktopFailurePath(of: source.uri))
    }

    /// Writes the failure entry of `source`: the spec's 1×1 PNG with the file's URI and
    /// modification time, so that this version of Thumbs does not try the file again until it
    /// changes; when its content is `damaged`, GNOME's factory's entry too.
    public func writeFailure(of source: ThumbnailSource, damaged: Bool) throws(DesktopCacheError) {
        let fields = [
            (key: "Thumb::URI", value: source.uri.string),
            (key: "Thumb::MTime", value: String(source.modificationTime)),
            (key: "Software", value: software),
        ]
        let tagged = (try? PNGText.inserting(fields, into: Self.transparentPixel)) ?? Self.transparentPixel
        try CacheFile.replace(failurePath(of: source.uri), with: tagged)
        if damaged { try CacheFile.replace(desktopFailurePath(of: source.uri), with: tagged) }
    }

    /// Removes every thumbnail and failure entry of `uri`'s file (its file is gone).
    public func remove(_ uri: FileURI) {
        for flavor in ThumbnailFlavor.allCases { CacheFile.remove(path(of: uri, flavor: flavor)) }
        CacheFile.remove(failurePath(of: uri))
        CacheFile.remove(desktopFailurePath(of: uri))
    }

    /// A 1×1 transparent RGBA PNG: what a failure entry holds.
    static let transparentPixel: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
        0x0B, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01, 0xE9, 0xFA,
        0xDC, 0xD8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}
