import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct ThumbnailRendererTests {
    let folder = TemporaryFolder()
    let spec = RenditionSpec(size: PixelSize(width: 160, height: 160), contentMode: .aspectFill, format: .jpeg)

    private func library(count: Int) throws -> [String] {
        try (0..<count).map { index in
            let image = SyntheticImage(width: 900 + index * 7, height: 600 + index * 3)
            return try folder.write(try image.encoded(as: .jpeg, orientation: 1 + index % 8), to: "photo-\(index).jpg")
        }
    }

    @Test func concurrentRendersFromATaskGroupMatchSerialOnes() async throws {
        let paths = try library(count: 16)
        let renderer = ThumbnailRenderer(configuration: ImagingConfiguration(workers: 2))
        let serial = VipsRenderer()
        let spec = spec
        let expected = try paths.map { try serial.render($0, spec: spec).bytes }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for _ in 0..<3 {
                for (index, path) in paths.enumerated() {
                    group.addTask { (index, try await renderer.render(path, spec: spec).bytes) }
                }
            }
            return try await group.reduce(into: [(Int, [UInt8])]()) { $0.append($1) }
        }
        #expect(results.count == paths.count * 3)
        for (index, bytes) in results {
            #expect(bytes == expected[index], "render \(index) differs under concurrency")
        }
    }

    @Test func rendersSeveralRenditionsInOrder() async throws {
        let path = try library(count: 1)[0]
        let renderer = ThumbnailRenderer()
        let specs = [RenditionSpec(size: PixelSize(width: 400, height: 400)), spec]
        let thumbnails = try await renderer.render(path, specs: specs)
        #expect(
            thumbnails.map(\.pixelSize) == [PixelSize(width: 400, height: 267), PixelSize(width: 160, height: 160)])
    }

    @Test func decodesThatEndAreCountedWithTheirTime() async throws {
        let path = try library(count: 1)[0]
        let renderer = ThumbnailRenderer(configuration: ImagingConfiguration(workers: 2))
        #expect(renderer.decodeTime.count == 0 && renderer.decodeTime.rate(workers: 2) == nil)
        _ = try await renderer.render(path, spec: spec)
        _ = try? await renderer.render(folder.write([0xFF, 0xD8, 0xFF], to: "broken.jpg"), spec: spec)
        let time = renderer.decodeTime
        #expect(time.count == 2, "a failed decode ends too")
        let rate = try #require(time.rate(workers: 2))
        #expect(rate == 2 * 2 / time.seconds, "two threads, each a decode in the mean time")
    }
}
