import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsIsolation
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport

/// A rendition asked with a gain map crosses the worker's protocol: the worker makes the same
/// Ultra HDR JPEG as the calling process.
@Suite struct IsolatedThumbnailRendererGainMapTests {
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aWorkerMakesTheSameUltraHDRJPEG() async throws {
        let path = SharedPhotos.root.appendingPathComponent("exports/seine_sdr_gainmap_srgb.jpg").path
        let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), hdr: .gainMap)
        let renderer = try IsolatedThumbnailRenderer(configuration: ImagingConfiguration(workers: 1))
        let isolated = try await renderer.render(
            ImageLocation(path: path), specs: [spec], ticket: PriorityTicket(.interactive))[0]
        #expect(isolated == (try VipsRenderer().render(path, specs: [spec])[0]))
        #expect(UltraHDRJPEG.headroom(of: isolated.bytes) == 1.3)
    }
}
