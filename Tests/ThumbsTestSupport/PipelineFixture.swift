import Foundation
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsRendering
import ThumbsStore
import ThumbsSupport
import ThumbsSamples

/// A folder of generated photos, a store and a manager over them.
package struct PipelineFixture {
    package let folder = TemporaryFolder()
    package let renderer: ThumbnailRenderer
    package let store: ThumbnailStore
    package let manager: CachingImageManager

    package init(workers: Int = 2) throws {
        renderer = ThumbnailRenderer(configuration: ImagingConfiguration(workers: workers))
        store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        manager = CachingImageManager(renderer: renderer, store: store)
    }

    /// Writes `bytes` as library/`name` and returns it as an asset (probed, as enumeration would).
    package func asset(_ name: String, _ bytes: [UInt8]) async throws -> Asset {
        let path = try folder.write(bytes, to: "library/" + name)
        let properties = try await renderer.probe(path)
        return Asset(
            root: folder.path + "/library", relativePath: name, mediaType: properties.mediaType,
            fingerprint: properties.fingerprint, properties: properties)
    }

    package func photo(_ name: String, width: Int = 1200, height: Int = 800) async throws -> Asset {
        try await asset(name, try SyntheticImage(width: width, height: height).encoded(as: .jpeg))
    }

    /// A photo whose file carries an EXIF thumbnail: opportunistic delivery has a cheap source.
    package func photoWithPreview(_ name: String) async throws -> Asset {
        try await asset(
            name,
            try ExifThumbnailJPEG.make(
                SyntheticImage(width: 1600, height: 1200),
                thumbnail: PixelSize(width: 160, height: 120), orientation: 1))
    }
}
