import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Decodes are accounted by the memory they really take, and the budget serialises or refuses
/// what would pass it.
@Suite struct DecodeMemoryBudgetTests {
    let folder = TemporaryFolder()
    let grid = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)

    private func photo(progressive: Bool, name: String) throws -> String {
        try folder.write(
            try SyntheticImage(width: 2400, height: 1800).encoded(as: .jpeg, progressive: progressive), to: name)
    }

    private func estimate(_ path: String) throws -> Int {
        let file = try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 100_000_000)
        return file.decodeMemory(
            to: PixelSize(width: 600, height: 450), renditionPixels: grid.size.pixelCount)
    }

    @Test func aProgressiveJPEGCountsItsCoefficients() throws {
        let progressive = try estimate(try photo(progressive: true, name: "progressive.jpg"))
        let baseline = try estimate(try photo(progressive: false, name: "baseline.jpg"))
        // 2400x1800, not subsampled (libvips keeps full chroma at quality 92): 3 samples per
        // pixel, 2 bytes each, besides the output.
        #expect(progressive - baseline == 2400 * 1800 * 6)
        // A baseline JPEG streams: it holds its picture at the DCT scale (1/2, which leaves
        // twice the 600x450 decode), the decode and its conversion, and the output.
        #expect(baseline == 1200 * 900 * 3 + 600 * 450 * 3 * 2 + grid.size.pixelCount * 4)
    }

    @Test func aDecodeLargerThanTheBudgetIsRefused() throws {
        let renderer = VipsRenderer(decodeMemoryBudget: ByteCount(8 << 20))
        let progressive = try photo(progressive: true, name: "progressive.jpg")
        let error = try #require(throws: ImagingError.self) { try renderer.render(progressive, spec: grid) }
        #expect(error.kind == .tooMuchMemory && "\(error)".contains("the decode budget is 8 MiB"), "\(error)")
        #expect(
            try renderer.render(try photo(progressive: false, name: "baseline.jpg"), spec: grid).pixelSize == grid.size)
    }

    @Test func decodesThatDoNotFitTogetherRunOneAfterTheOther() async throws {
        let progressive = try photo(progressive: true, name: "progressive.jpg")
        let one = try estimate(progressive)
        var configuration = ImagingConfiguration(workers: 4)
        configuration.decodeMemoryBudget = ByteCount(Int64(one + one / 2))
        let renderer = ThumbnailRenderer(configuration: configuration)
        let grid = grid
        try await withThrowingTaskGroup(of: Thumbnail.self) { group in
            for _ in 0..<6 { group.addTask { try await renderer.render(progressive, spec: grid) } }
            for try await thumbnail in group { #expect(thumbnail.pixelSize == grid.size) }
        }
        let peak = renderer.core.peakDecodeMemory
        #expect(peak > 0 && Int64(peak) <= configuration.decodeMemoryBudget.bytes, "\(peak)")
    }

    @Test func manyLargeRenditionsArePartOfTheEstimate() throws {
        let renderer = VipsRenderer(decodeMemoryBudget: ByteCount(64 << 20))
        let path = try photo(progressive: false, name: "baseline.jpg")
        let huge = (0..<32).map {
            RenditionSpec(size: PixelSize(width: 8000 + $0, height: 8000), allowsUpscaling: true)
        }
        let error = try #require(throws: ImagingError.self) { try renderer.render(path, specs: huge) }
        #expect(error.kind == .tooMuchMemory)
    }
}
