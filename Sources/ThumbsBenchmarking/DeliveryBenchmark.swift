import Foundation
import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport

/// Scrolls a grid of a library's photos in real time, as a photo app would, and measures what
/// the user would see for each delivery mode, with and without preheating.
///
/// Every frame the view moves down at ``Configuration/cellsPerSecond``; a cell coming into view
/// requests its image (as `cellForItemAt`), a cell leaving it cancels its request (as
/// `prepareForReuse`); with preheating, cells entering and leaving the ``PreheatWindow`` are
/// `startCaching` and `stopCaching`. Each scenario starts from an empty cache of its own.
/// ```swift
/// let benchmark = DeliveryBenchmark(assets: assets, renderer: ThumbnailRenderer())
/// for scenario in DeliveryScenario.all {
///     let result = try await benchmark.run(scenario)
///     print(scenario, result.blankShare, result.firstImage.p95 ?? 0)
/// }
/// ```
package struct DeliveryBenchmark: Sendable {
    /// How the grid looks and scrolls.
    package struct Configuration: Sendable, Hashable, Codable {
        /// Cells per row. Default: 4.
        package var columns = 4
        /// The view's height in rows. Default: 6.
        package var visibleRows = 6.0
        /// Scroll speed, in cells passing per second. Default: 40 (ten rows a second).
        package var cellsPerSecond = 40.0
        /// The thumbnail each cell asks for. Default: 256×256.
        package var targetSize = PixelSize(width: 256, height: 256)
        /// Default: fill, as a square grid cell.
        package var contentMode = ContentMode.aspectFill
        /// The display's refresh rate, which is also how long a cell may stay blank unnoticed.
        /// Default: 60 Hz (16.7 ms).
        package var framesPerSecond = 60.0
        /// How long the last screen may wait for its final images after the scroll stops.
        /// Default: 2 s.
        package var settleSeconds = 2.0
        /// The fastest scroll a following preheat window keeps up with, in cells a second; nil
        /// (the default): as many as the render threads render, by the mean time of the decodes
        /// so far.
        package var fastestCellsPerSecond: Double?

        package init() {}

        var frameSeconds: Double { 1 / framesPerSecond }
    }

    package let assets: [Asset]
    package let renderer: ThumbnailRenderer
    package let configuration: Configuration

    package init(assets: [Asset], renderer: ThumbnailRenderer, configuration: Configuration = Configuration()) {
        self.assets = assets
        self.renderer = renderer
        self.configuration = configuration
    }

    package var grid: ScrollGrid {
        ScrollGrid(count: assets.count, columns: configuration.columns, visibleRows: configuration.visibleRows)
    }

    /// Scrolls the whole grid once for `scenario`, with a new cache in a temporary folder that is
    /// deleted afterwards.
    package func run(_ scenario: DeliveryScenario) async throws -> DeliveryScenarioResult {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("thumbs-bench-delivery-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder))
        let withPreview = Set(assets.indices.filter { assets[$0].properties?.hasCheapPicture == true })
        let recorder = ScrollRecorder(grid: grid, assetIDs: assets.map(\.id), withPreview: withPreview)
        let manager = CachingImageManager(renderer: renderer, store: store, onRender: recorder.renderEnded)
        var scroll = Scroll(benchmark: self, scenario: scenario, manager: manager, recorder: recorder)
        let end = try await scroll.run()
        // Written after delivery: done before the folder is deleted.
        await manager.persisted()
        return recorder.result(scenario, end: end, frame: configuration.frameSeconds)
    }
}

extension DeliveryBenchmark {
    /// Reads every asset's file once and renders one photo of each type, all on the render
    /// threads, so that neither the disk nor libvips' first use of a loader is charged to the
    /// first scenario.
    package func prepare() async {
        for asset in assets {
            _ = try? await renderer.pool.run(priority: .preheat) {
                try FileHandle(forReadingFrom: URL(fileURLWithPath: asset.path)).readToEnd()
            }
        }
        let spec = RenditionSpec(size: configuration.targetSize, contentMode: configuration.contentMode)
        for (_, asset) in Dictionary(assets.map { ($0.mediaType, $0) }, uniquingKeysWith: { first, _ in first }) {
            _ = try? await renderer.render(asset.path, spec: spec)
            _ = try? await renderer.embeddedPreview(asset.path)
        }
    }

    /// `results` drawn as a ``DeliveryChart``, on a render thread.
    package func chart(of results: [DeliveryScenarioResult], title: String) async throws -> [UInt8] {
        try await renderer.pool.run { try DeliveryChart(results: results, title: title).png() }
    }
}
