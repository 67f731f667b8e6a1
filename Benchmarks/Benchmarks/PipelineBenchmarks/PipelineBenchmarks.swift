import Benchmark
import BenchmarkSupport
import Foundation
import Thumbs
import ThumbsProcessTuning

/// The pipeline on ../shared/photos: time to the first image per delivery mode, time to the
/// final image, warm throughput, and peak memory under many concurrent requests.
let benchmarks: @Sendable () -> Void = {
    let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/photos").path
    guard FileManager.default.fileExists(atPath: photos + "/MANIFEST.tsv") else {
        print("../shared/photos is absent: pipeline benchmarks skipped")
        return
    }
    // As the thumbs command does at start.
    ProcessTuning.limitMallocArenas()
    ProcessTuning.keepFreedAllocations()
    let renderer = ThumbnailRenderer()
    let grid = PixelSize(width: 256, height: 256)
    let all = try! blocking {
        try await PhotoLibrary(roots: [photos], renderer: renderer, store: nil).allAssets().assets
    }
    // Camera and phone photos of a megapixel or more with an embedded preview (EXIF or HEIF).
    let previewed = all.filter { asset in
        asset.properties?.embeddedPreviewSize != nil && (asset.pixelSize?.pixelCount ?? 0) >= 1_000_000
    }.sorted { $0.relativePath < $1.relativePath }

    /// Time from the request to its first result (or its last, with `untilFinal`), one photo
    /// per iteration, each with a new, empty store.
    func timeToImage(_ name: String, mode: DeliveryMode, untilFinal: Bool) {
        Benchmark(
            name,
            configuration: .init(
                metrics: [.wallClock], maxDuration: .seconds(60),
                maxIterations: previewed.count * 3)
        ) { benchmark in
            for iteration in benchmark.scaledIterations {
                let manager = CachingImageManager(renderer: renderer, store: try freshStore())
                let request = manager.requestImage(
                    for: previewed[iteration % previewed.count], targetSize: grid,
                    contentMode: .aspectFill, options: ImageRequestOptions(deliveryMode: mode))
                benchmark.startMeasurement()
                for try await result in request {
                    blackHole(result)
                    if !untilFinal { break }
                }
                benchmark.stopMeasurement()
            }
        }
    }

    for mode in DeliveryMode.allCases {
        timeToImage("First image, \(mode.rawValue), cold cache, photos with a preview", mode: mode, untilFinal: false)
    }
    timeToImage("Final image, opportunistic, cold cache, photos with a preview", mode: .opportunistic, untilFinal: true)

    Benchmark(
        "Warm ../shared/photos, 2 renditions, cold cache",
        configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(120), maxIterations: 5)
    ) { benchmark in
        let store = try freshStore()
        let library = PhotoLibrary(roots: [photos], renderer: renderer, store: store)
        for try await _ in library.assets() {}  // metadata cached: measure rendering, not probing
        let renditions = [
            RenditionSpec(size: grid, contentMode: .aspectFill, quality: 80),
            RenditionSpec(size: PixelSize(width: 1024, height: 1024), quality: 85),
        ]
        benchmark.startMeasurement()
        let summary = try await WarmJob(store: store, renderer: renderer, renditions: renditions).run(over: library)
        benchmark.stopMeasurement()
        precondition(summary.rendered == 66, "rendered \(summary.rendered)")
    }

    // 12-24 MP photos, each asked for at many sizes so that no two requests coalesce.
    let large = all.filter {
        ($0.pixelSize?.pixelCount ?? 0) >= 12_000_000 && $0.relativePath.hasPrefix("broken") == false
    }
    for count in [100, 1_000] {
        Benchmark(
            "\(count) concurrent requests for 12-24 MP photos (peak memory)",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident], maxDuration: .seconds(600), maxIterations: 1)
        ) { _ in
            let manager = CachingImageManager(renderer: renderer, store: try freshStore())
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    let asset = large[index % large.count]
                    let side = 160 + index / large.count * 4
                    group.addTask {
                        for try await result in manager.requestImage(
                            for: asset, targetSize: PixelSize(width: side, height: side), contentMode: .aspectFit,
                            options: ImageRequestOptions(deliveryMode: .highQualityFormat))
                        {
                            blackHole(result)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

private func freshStore() throws -> ThumbnailStore {
    try ThumbnailStore(configuration: StoreConfiguration(path: ScratchFolder.make("pipeline")))
}

/// Runs async set-up from the synchronous registration closure.
private func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// Written by one task before the semaphore is signalled, read after it is waited for.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
