import Foundation
import Testing
@testable import ThumbsBenchmarking
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Short real-time scrolls over generated photos with real libvips and LMDB. Only what holds
/// whatever the machine's speed is checked; the measurements themselves are for benchmarks.
@Suite struct DeliveryBenchmarkTests {
    private func benchmark(
        _ fixture: PipelineFixture, photos: Int, fastestCellsPerSecond: Double? = nil
    ) async throws -> DeliveryBenchmark {
        // One photo with an EXIF preview, written under many names: generating pixels is the slow part.
        let photo = try ExifThumbnailJPEG.make(
            SyntheticImage(width: 1600, height: 1200),
            thumbnail: PixelSize(width: 160, height: 120), orientation: 1)
        var assets: [Asset] = []
        for index in 0..<photos { assets.append(try await fixture.asset("p\(index).jpg", photo)) }
        var configuration = DeliveryBenchmark.Configuration()
        configuration.columns = 4
        configuration.visibleRows = 3
        configuration.cellsPerSecond = 80
        configuration.targetSize = PixelSize(width: 128, height: 128)
        configuration.settleSeconds = 60
        configuration.fastestCellsPerSecond = fastestCellsPerSecond
        return DeliveryBenchmark(assets: assets, renderer: fixture.renderer, configuration: configuration)
    }

    @Test func opportunisticShowsPreviewsThenFinals() async throws {
        let fixture = try PipelineFixture()
        let benchmark = try await benchmark(fixture, photos: 16)
        let result = try await benchmark.run(DeliveryScenario(deliveryMode: .opportunistic, preheat: false))
        #expect(result.cellsShown == 16)
        #expect(result.degradedShown >= 12, "the last screen stays until settled, and previews come first")
        #expect(result.finalImage.count >= 12)
        #expect(result.rendersFailed == 0)
        #expect(result.rendersFinished <= 16, "one render per cell at most without preheating")
        #expect((0...1).contains(result.blankShare))
    }

    @Test func highQualityWithPreheatNeverShowsDegraded() async throws {
        let fixture = try PipelineFixture()
        let benchmark = try await benchmark(fixture, photos: 16)
        let result = try await benchmark.run(DeliveryScenario(deliveryMode: .highQualityFormat, preheat: true))
        #expect(result.cellsShown == 16)
        #expect(result.degradedShown == 0)
        #expect(result.firstImage.count == result.finalImage.count)
        #expect(result.finalImage.count >= 12)
        #expect(result.rendersFinished <= 16, "preheat and display share one render per cell")
    }

    @Test func aFlickWithTheFollowingWindowAsksForPreviewsThenFinalsOnceItStops() async throws {
        let fixture = try PipelineFixture()
        // The window keeps up with 40 cells a second whatever this machine renders: the flick, at
        // 80, is too fast for it once its speed is measured (a tenth of a second in), until it
        // stops at the bottom.
        let benchmark = try await benchmark(fixture, photos: 96, fastestCellsPerSecond: 40)
        let scenario = DeliveryScenario(deliveryMode: .opportunistic, preheat: true, rule: .followingScroll)
        let result = try await benchmark.run(scenario)
        // The first screen and the last at least: rows that a late frame scrolls past between
        // two frames never come into view, as on a busy display.
        #expect(result.cellsShown >= 24)
        // What was asked for is checked, not what the render threads finished in time: how many
        // previews and finals come before their cell leaves the screen depends on the machine.
        #expect(result.cellsAskingPreviewsOnly > 0, "the flick was too fast: cells asked only for previews")
        #expect(result.finalsAskedWhileTooFast == 0, "no final asked for, nor preheated, during the flick")
        #expect(
            result.cellsAskingPreviewsOnly - result.cellsPassedWithoutFinal <= 12,
            "of the cells that asked for previews, only the last screen's asked for finals, once the scroll stopped")
        #expect(result.finalImage.count >= 12, "the last screen got its finals once the scroll stopped")
        #expect(result.rendersFailed == 0)
    }

    @Test func chartIsAPNG() async throws {
        let fixture = try PipelineFixture()
        let benchmark = try await benchmark(fixture, photos: 8)
        let result = try await benchmark.run(DeliveryScenario(deliveryMode: .fastFormat, preheat: true))
        let png = try await benchmark.chart(of: [result, result], title: "two <scrolls> & more")
        let path = try fixture.folder.write(png, to: "chart.png")
        let properties = try VipsRenderer().probe(path)
        #expect(properties.mediaType == .png)
        #expect(properties.pixelSize.width >= 600)
    }
}
