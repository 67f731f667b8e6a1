import Benchmark
import BenchmarkSupport
import Foundation
import Thumbs
import ThumbsSamples

/// Enumeration of generated libraries of 20,000 and 100,000 small JPEGs: time to the first
/// batch and to the end of the walk, cold (every file read and probed, a new metadata cache) and
/// warm (served from the metadata cache, files only listed and stat'ed).
let benchmarks: @Sendable () -> Void = {
    let renderer = ThumbnailRenderer()

    for count in [20_000, 100_000] {
        let root = GeneratedLibrary.make(count: count)
        let label = count == 20_000 ? "20k" : "100k"
        let iterations = count == 20_000 ? 5 : 3
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, .peakMemoryResident],
            maxDuration: .seconds(120), maxIterations: iterations)

        Benchmark("Walk \(label) photos, cold: first batch", configuration: configuration) { benchmark in
            let library = PhotoLibrary(roots: [root], renderer: renderer, store: try! freshStore())
            benchmark.startMeasurement()
            var iterator = library.assets().makeAsyncIterator()
            blackHole(try! await iterator.next())
            benchmark.stopMeasurement()
        }

        Benchmark("Walk \(label) photos, cold: whole walk", configuration: configuration) { benchmark in
            let library = PhotoLibrary(roots: [root], renderer: renderer, store: try! freshStore())
            benchmark.startMeasurement()
            var assets = 0
            for try await batch in library.assets() { assets += batch.assets.count }
            benchmark.stopMeasurement()
            precondition(assets == count, "found \(assets) of \(count)")
        }

        let warmStore = try! freshStore()
        Benchmark("Walk \(label) photos, from the metadata cache: whole walk", configuration: configuration) {
            benchmark in
            let library = PhotoLibrary(roots: [root], renderer: renderer, store: warmStore)
            for try await _ in library.assets() {}  // fills the cache on the first iteration
            benchmark.startMeasurement()
            var assets = 0, read = 0
            for try await batch in library.assets() {
                assets += batch.assets.count
                read += batch.inspected
            }
            benchmark.stopMeasurement()
            precondition(assets == count && read == 0, "found \(assets), read \(read)")
        }
    }
}

private func freshStore() throws -> ThumbnailStore {
    try ThumbnailStore(configuration: StoreConfiguration(path: ScratchFolder.make("cache")))
}

/// A library of `count` copies of one small JPEG (with an EXIF date), 500 per folder, kept in the
/// temporary directory between runs.
enum GeneratedLibrary {
    static func make(count: Int) -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-bench-library-\(count)").path
        let done = root + "/.complete"
        if FileManager.default.fileExists(atPath: done) { return root }
        try? FileManager.default.removeItem(atPath: root)
        let jpeg = Data(
            try! SyntheticImage(width: 320, height: 240, exif: ["exif-ifd2-DateTimeOriginal": "2021:06:01 12:00:00"])
                .encoded(as: .jpeg, quality: 80))
        for index in 0..<count {
            let folder = root + "/folder\(index / 500)"
            if index % 500 == 0 {
                try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            _ = FileManager.default.createFile(atPath: folder + "/IMG_\(index).jpg", contents: jpeg)
        }
        _ = FileManager.default.createFile(atPath: done, contents: nil)
        return root
    }
}
