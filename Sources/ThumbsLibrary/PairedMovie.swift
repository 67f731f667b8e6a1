import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// A Live Photo's movie: a file of its own in the still's folder, with the still's content
/// identifier. It is part of the still's asset, never an asset of its own.
public struct PairedMovie: Sendable, Hashable {
    /// The path inside the asset's root, as the file system has it.
    public let relativeFilePath: FilePath
    /// The same, for people.
    public let relativePath: String
    public let mediaType: MediaType
    /// Size and modification time when it was enumerated.
    public let fingerprint: FileFingerprint
    /// Seconds, when the movie's container says.
    public let duration: Double?

    public init(
        relativeFilePath: FilePath, mediaType: MediaType, fingerprint: FileFingerprint, duration: Double?
    ) {
        self.relativeFilePath = relativeFilePath
        self.relativePath = relativeFilePath.displayString
        self.mediaType = mediaType
        self.fingerprint = fingerprint
        self.duration = duration
    }

    /// The movie half `movie` was listed as before it was paired.
    init(_ movie: Asset) {
        self.init(
            relativeFilePath: movie.relativeFilePath, mediaType: movie.mediaType, fingerprint: movie.fingerprint,
            duration: movie.properties?.video?.duration)
    }
}

extension PairedMovie {
    /// The Live Photo movie of the still at `path`, whose content identifier is `identifier`: a
    /// QuickTime or MP4 movie beside it under the same name (IMG_0001.HEIC and IMG_0001.MOV, as
    /// phones and exports name them; the extension in upper or lower case) with the same
    /// identifier, found without reading the folder (`thumbs probe` of one file): each name is
    /// tried through `renderer`, whose threads do the file system's work. Nil when there is
    /// none. A walk pairs by identifier alone, so it also finds a movie named otherwise.
    public static func beside(
        stillAt path: String, identifier: String, renderer: any ThumbnailRendering
    ) async -> PairedMovie? {
        let still = URL(fileURLWithPath: path).standardizedFileURL
        let folder = FilePath(still.deletingLastPathComponent().path)
        let stem = still.deletingPathExtension().lastPathComponent
        for name in ["MOV", "mov", "MP4", "mp4"].map({ stem + "." + $0 }) where name != still.lastPathComponent {
            let location = ImageLocation(root: folder, relativePath: FilePath(name))
            guard let inspection = try? await renderer.inspect(location), inspection.mediaType.isVideo,
                inspection.properties?.contentIdentifier == identifier
            else { continue }
            return PairedMovie(
                relativeFilePath: FilePath(name), mediaType: inspection.mediaType, fingerprint: inspection.fingerprint,
                duration: inspection.properties?.video?.duration)
        }
        return nil
    }
}
