import Glibc
import SystemPackage
import ThumbsCore
import ThumbsLibrary
import ThumbsPipeline
import ThumbsRendering
import ThumbsStore

/// The desktop's thumbnail cache as an output of `thumbs warm` and `thumbs watch`: its
/// flavours are rendered from the same decode as the store's renditions.
extension DesktopThumbnailCache: WarmOutput {
    public var renditions: [RenditionSpec] { flavors.map(\.rendition) }

    public func state(of asset: Asset) -> WarmOutputState {
        // A path the desktop cannot name has nothing to warm.
        guard let source = ThumbnailSource(asset) else { return .current }
        return state(of: source)
    }

    public func write(_ thumbnails: [RenditionSpec: Thumbnail], of asset: Asset) throws {
        guard let source = ThumbnailSource(asset) else { return }
        try write(flavors.compactMap { thumbnails[$0.rendition] }, of: source)
    }

    public func recordFailure(_ failure: FailureRecord, of asset: Asset) throws {
        guard let source = ThumbnailSource(asset) else { return }
        try writeFailure(of: source, damaged: Self.damagedKinds.contains(failure.kind))
    }

    public func remove(_ assets: [Asset]) {
        for source in assets.compactMap(ThumbnailSource.init) { remove(source.uri) }
    }
}

extension DesktopThumbnailCache {
    /// Failures that say the file's content is damaged, which no thumbnailer would read either.
    static let damagedKinds: Set<ImagingError.Kind> = [.emptyFile, .truncated, .corrupt]
}

extension ThumbnailSource {
    /// The asset's file as the desktop names it: its absolute path (the library root as given,
    /// without `.` or `..`, then the path beneath it, byte for byte).
    init?(_ asset: Asset) {
        var path = Array(asset.root.utf8)
        asset.relativeFilePath.withPlatformString { name in
            path.append(UInt8(ascii: "/"))
            path += UnsafeRawBufferPointer(start: name, count: strlen(name))
        }
        guard let uri = FileURI(path: path) else { return nil }
        // Whole seconds, rounded down, as `stat`'s st_mtime (before 1970 too).
        let nanoseconds = asset.fingerprint.modificationTimeNanoseconds
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
        self.init(
            uri: uri, modificationTime: seconds, fileSize: asset.fingerprint.size, mimeType: Self.mimeType(of: asset),
            pixelSize: asset.pixelSize)
    }

    /// The MIME type shared-mime-info gives such a file (what a file manager shows), from its
    /// content; for camera RAW, which is told apart by name, from its extension.
    static func mimeType(of asset: Asset) -> String? {
        guard asset.mediaType == .cameraRaw else { return asset.mediaType.mimeType }
        let suffix = asset.relativePath.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return rawTypes[suffix] ?? asset.mediaType.mimeType
    }

    private static let rawTypes = [
        "dng": "image/x-adobe-dng", "cr2": "image/x-canon-cr2", "cr3": "image/x-canon-cr3",
        "crw": "image/x-canon-crw", "nef": "image/x-nikon-nef", "nrw": "image/x-nikon-nrw",
        "arw": "image/x-sony-arw", "srf": "image/x-sony-srf", "sr2": "image/x-sony-sr2",
        "orf": "image/x-olympus-orf", "rw2": "image/x-panasonic-rw2", "raf": "image/x-fuji-raf",
        "pef": "image/x-pentax-pef", "kdc": "image/x-kodak-kdc", "dcr": "image/x-kodak-dcr",
        "srw": "image/x-samsung-srw", "erf": "image/x-epson-erf", "mrw": "image/x-minolta-mrw",
        "x3f": "image/x-sigma-x3f", "3fr": "image/x-hasselblad-3fr",
    ]
}
