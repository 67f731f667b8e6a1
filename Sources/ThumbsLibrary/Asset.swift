import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// A photo or video of the library, as `PHAsset` is on iOS.
///
/// ```swift
/// for try await batch in library.assets() {
///     for asset in batch.assets { print(asset.id, asset.relativePath, asset.date) }
/// }
/// ```
public struct Asset: Sendable, Hashable, Identifiable {
    /// Stable across runs and across renames or moves of *other* files: it is derived from the
    /// root and the path inside it (see ``AssetID``). Moving or renaming the file itself makes it
    /// a new asset (the old id disappears, a new one appears), as a file manager would show it.
    public let id: String
    /// The library root the asset was found under.
    public let root: String
    /// The path inside ``root``, without a leading "/", for people: ``relativeFilePath`` with
    /// any byte that is not UTF-8 shown as `\xHH`.
    public let relativePath: String
    /// The path inside ``root`` as the file system has it: bytes, the one used to open the file.
    public let relativeFilePath: FilePath
    /// From the content, not the name.
    public let mediaType: MediaType
    /// Size and modification time when it was enumerated.
    public let fingerprint: FileFingerprint
    /// What the header said, for images whose header could be read; nil for videos.
    public let properties: ImageProperties?
    /// A blurred stand-in to show before any thumbnail, as the metadata cache had it when the
    /// asset was enumerated (for this ``fingerprint`` only); nil until a warm, or a render
    /// through `CachingImageManager`, has made one.
    public var placeholder: ThumbHash?
    /// A Live Photo's movie, when this still has one beside it (see ``motion``).
    public internal(set) var pairedMovie: PairedMovie?
    /// Whether this frame stands for its burst: the one a fetch lists unless it asks for every
    /// frame (see ``burstIdentifier``).
    public internal(set) var representsBurst = false
    /// How many frames the burst this frame stands for has (0 for any other asset).
    public internal(set) var burstFrameCount = 0

    public init(
        root: String, relativePath: String, mediaType: MediaType, fingerprint: FileFingerprint,
        properties: ImageProperties? = nil
    ) {
        self.init(
            root: root, relativeFilePath: FilePath(relativePath), mediaType: mediaType, fingerprint: fingerprint,
            properties: properties)
    }

    public init(
        root: String, relativeFilePath: FilePath, mediaType: MediaType, fingerprint: FileFingerprint,
        properties: ImageProperties? = nil
    ) {
        self.id = AssetID.make(root: root, relativeFilePath: relativeFilePath)
        self.root = root
        self.relativeFilePath = relativeFilePath
        self.relativePath = relativeFilePath.displayString
        self.mediaType = mediaType
        self.fingerprint = fingerprint
        self.properties = properties
    }

    /// The whole path, for people.
    public var path: String { root + "/" + relativePath }

    /// Where the renderer opens it: beneath ``root``, expected at ``fingerprint``.
    public var location: ImageLocation {
        ImageLocation(root: FilePath(root), relativePath: relativeFilePath, expectedFingerprint: fingerprint)
    }
    /// The bytes of the asset's files: the still's and, for a Live Photo, its movie's.
    public var fileSize: UInt64 { fingerprint.size + (pairedMovie?.fingerprint.size ?? 0) }
    public var pixelSize: PixelSize? { properties?.pixelSize }
    public var isVideo: Bool { mediaType.isVideo }

    /// The folder holding the asset, relative to its root ("" for the root itself).
    public var folder: String {
        guard let slash = relativePath.lastIndex(of: "/") else { return "" }
        return String(relativePath[..<slash])
    }

    /// The title of the folder album holding it: its folder, or the root's name for files at
    /// the root.
    public var albumTitle: String {
        LibraryBatch.Folder(root: root, path: folder).title
    }

    /// When it was taken: EXIF DateTimeOriginal (with its offset, else read in the library's
    /// time zone), else the file's modification time.
    public var date: Date {
        properties?.captureDate?.date() ?? modificationDate
    }

    public var modificationDate: Date {
        Date(timeIntervalSince1970: TimeInterval(fingerprint.modificationTimeNanoseconds) / 1e9)
    }

    /// The local calendar day it was taken: the capture date's own wall-clock day (a photo taken
    /// at 23:30 in Tokyo belongs to that Tokyo day wherever it is viewed), else the modification
    /// day in `timeZone`.
    public func day(in timeZone: TimeZone = .current) -> Day {
        if let captured = properties?.captureDate {
            return Day(year: captured.year, month: captured.month, day: captured.day)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: modificationDate)
        return Day(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }
}
