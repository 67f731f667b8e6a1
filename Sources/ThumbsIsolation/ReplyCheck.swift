import ThumbsCore
import ThumbsImaging
import ThumbsRendering

/// What a worker's results must be before the renderer trusts them: as many thumbnails as specs
/// asked for, each in its spec's format and inside its box, each starting as its format does.
/// (The wire format already bounded every length and count.)
enum ReplyCheck {
    static func thumbnails(_ thumbnails: [Thumbnail], for specs: [RenditionSpec]) throws(ReplyError) -> [Thumbnail] {
        guard thumbnails.count == specs.count else {
            throw .unexpected("\(thumbnails.count) thumbnails for \(specs.count) renditions")
        }
        for (thumbnail, spec) in zip(thumbnails, specs) {
            guard thumbnail.format == spec.format, thumbnail.pixelSize.width >= 1, thumbnail.pixelSize.height >= 1,
                thumbnail.pixelSize.width <= spec.size.width, thumbnail.pixelSize.height <= spec.size.height
            else { throw .unexpected("a \(thumbnail.pixelSize) \(thumbnail.format) thumbnail for \(spec)") }
            try encoded(thumbnail)
        }
        return thumbnails
    }

    static func preview(_ thumbnail: Thumbnail, format: ThumbnailFormat, pixelLimit: Int) throws(ReplyError)
        -> Thumbnail
    {
        guard thumbnail.format == format, thumbnail.pixelSize.width >= 1, thumbnail.pixelSize.height >= 1,
            thumbnail.pixelSize.pixelCount <= pixelLimit
        else { throw .unexpected("a \(thumbnail.pixelSize) \(thumbnail.format) preview") }
        try encoded(thumbnail)
        return thumbnail
    }

    /// The largest side an inspection may report: libvips addresses no larger image.
    static let largestSide = 10_000_000

    /// An inspection of the file the renderer sniffed as `sniffed` (its type and fingerprint, read
    /// in the renderer's own process): the same type, and every number of the header within what
    /// a header can say, so that nothing the worker made up reaches a conversion that traps.
    static func inspection(_ inspection: Inspection, of sniffed: ImageSource) throws(ReplyError) -> Inspection {
        guard inspection.mediaType == sniffed.mediaType else {
            throw .unexpected("a \(inspection.mediaType) where the renderer found a \(sniffed.mediaType)")
        }
        var checked = inspection
        checked.changedWhileRead = inspection.changedWhileRead || inspection.fingerprint != sniffed.fingerprint
        guard let properties = inspection.properties else { return checked }
        let sides =
            [properties.pixelSize.width, properties.pixelSize.height]
            + [properties.embeddedPreviewSize?.width ?? 1, properties.embeddedPreviewSize?.height ?? 1]
        guard sides.allSatisfy({ (0...largestSide).contains($0) }),
            (1...8).contains(properties.exifOrientation ?? 1), (1...Int(UInt32.max)).contains(properties.pageCount),
            properties.mediaType == inspection.mediaType,
            properties.contentIdentifier.map({ $0.utf8.count <= AppleMakerNote.longestContentIdentifier }) ?? true,
            properties.burst.map({ isAcceptable($0) }) ?? true,
            isAcceptable(properties.mediaSubtypes, isVideo: properties.video != nil),
            properties.embeddedMovie.map({ isWithin($0, fileSize: sniffed.fingerprint.size) }) ?? true
        else { throw .unexpected("an inspection out of range: \(properties)") }
        return checked
    }

    /// Whether a burst's identifier is one a probe keeps: not empty, and not longer than
    /// ``/ThumbsImaging/BurstMembership/longestIdentifier``.
    private static func isAcceptable(_ burst: BurstMembership) -> Bool {
        !burst.identifier.isEmpty && burst.identifier.utf8.count <= BurstMembership.longestIdentifier
    }

    /// Whether a probe can find `subtypes` in one file: a photo's subtypes for a still, a
    /// video's for a video, and never a Live Photo (which takes a pair, or the embedded movie
    /// the reply reports on its own).
    private static func isAcceptable(_ subtypes: MediaSubtypes, isVideo: Bool) -> Bool {
        let video: MediaSubtypes = [.videoHighFrameRate, .videoTimelapse]
        let photo: MediaSubtypes = [.photoPanorama, .photoHDR, .photoScreenshot, .photoDepthEffect]
        return subtypes.isSubset(of: isVideo ? video : photo)
    }

    /// Whether `movie` lies within a file of `fileSize` bytes and its duration is a number of
    /// seconds: its range is what a download of the movie reads.
    private static func isWithin(_ movie: EmbeddedMovie, fileSize: UInt64) -> Bool {
        movie.offset <= fileSize && movie.length <= fileSize - movie.offset
            && (movie.duration.map { $0.isFinite && $0 >= 0 } ?? true)
    }

    /// The most bytes a reply to `work` may hold: for thumbnails, four bytes a pixel of every box
    /// (more than any encoding of it takes) and room for its fields; for a preview, of every pixel
    /// the pixel limit allows; for an inspection, its header's details. A longer message is a
    /// broken worker's, refused before it is read.
    static func largestReply(to work: WorkerRequest.Work, pixelLimit: Int) -> Int {
        let fields = 64 << 10
        switch work {
        case .render(let specs): return specs.reduce(fields) { $0 + 4 * $1.size.pixelCount + fields }
        case .renderCrop(let spec, _): return 2 * fields + 4 * spec.size.pixelCount
        case .embeddedPreview:
            return fields + 4 * min(pixelLimit, RenditionSpec.maximumDimension * RenditionSpec.maximumDimension)
        case .inspect: return 2 << 20
        }
    }

    /// Fails unless the bytes begin as the thumbnail's format does.
    private static func encoded(_ thumbnail: Thumbnail) throws(ReplyError) {
        let bytes = thumbnail.bytes
        let signature: Bool =
            switch thumbnail.format {
            case .jpeg: bytes.starts(with: [0xFF, 0xD8, 0xFF])
            case .png: bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            case .webp:
                bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
                    && Array(bytes[8..<12]) == Array("WEBP".utf8)
            }
        guard signature else { throw .unexpected("a \(thumbnail.format) thumbnail that is not one") }
    }
}

/// Why a reply gave no result: the file failed in the worker, or the reply is not what was asked.
enum ReplyError: Error {
    case file(ImagingError)
    case unexpected(String)
}
