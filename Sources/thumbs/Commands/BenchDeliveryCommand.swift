import ArgumentParser
import Foundation
import Thumbs
import ThumbsBenchmarking

struct BenchDeliveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delivery",
        abstract: "Scroll a grid of the library in real time and compare delivery modes, with and without preheating.",
        discussion: """
            The library's photos are laid out in a grid COLUMNS wide, seen through a view ROWS \
            high, scrolled from top to bottom at SPEED cells a second, frame by frame. A cell \
            coming into view requests its thumbnail, a cell leaving it cancels the request. With \
            preheating, a window of cells is startCaching'ed and stopCaching'ed as it moves: \
            "apple" is the window of Apple's PhotoKit sample (the visible rect extended by half \
            its height above and below, moved when the scroll has gone a third of the view's \
            height); "following" reaches ahead of the view as far as two seconds of the scroll's \
            speed, keeps nothing behind it and moves every frame, and above 5 rows a second \
            preheats nothing while cells with an embedded preview ask only for it, until the \
            scroll slows.

            Every scenario starts from an empty cache of its own in the temporary folder (your \
            cache is only used for the library's metadata). Reported per scenario: the share of \
            cells blank for longer than one frame, time to first and to final image (p50, p95, \
            p99), and renders finished, cancelled (never started: nobody wanted them any more) and \
            wasted (finished for cells already scrolled past).

            Example:
              thumbs bench delivery ~/Pictures --speed 40 --chart delivery.png
            """)

    @Option(help: "Cells per row.")
    var columns = 4

    @Option(help: "The view's height, in rows.")
    var rows = 6.0

    @Option(help: ArgumentHelp("Scroll speed, in cells a second.", valueName: "SPEED"))
    var speed = 40.0

    @Option(help: ArgumentHelp("Thumbnail each cell asks for.", valueName: "WxH"))
    var size = "256x256"

    @Option(help: "fill or fit.")
    var mode: ContentMode = .aspectFill

    @Option(
        name: .customLong("delivery"),
        help: "Delivery modes to run: opportunistic, highQualityFormat, fastFormat (repeat; default all).")
    var deliveries: [DeliveryMode] = DeliveryMode.allCases

    @Option(
        help:
            "Preheating: apple (the window of Apple's sample), following (the window that follows the scroll), off, or all three."
    )
    var preheat: PreheatChoice = .all

    @Option(help: ArgumentHelp("Use only the first N photos of the library.", valueName: "N"))
    var limit: Int?

    @Option(help: ArgumentHelp("Also draw the results as a PNG chart.", valueName: "FILE"))
    var chart: String?

    @OptionGroup var library: LibraryOptions

    enum PreheatChoice: String, ExpressibleByArgument, CaseIterable {
        case apple, following, off, all
        /// (preheat, rule) of each scenario.
        var values: [(Bool, PreheatRule)] {
            switch self {
            case .apple: [(true, .apple)]
            case .following: [(true, .followingScroll)]
            case .off: [(false, .apple)]
            case .all: [(true, .apple), (true, .followingScroll), (false, .apple)]
            }
        }
    }

    func validate() throws {
        guard let box = PixelSize(parsing: size), max(box.width, box.height) <= RenditionSpec.maximumDimension else {
            throw ValidationError("--size must look like 256x256 (each side at most \(RenditionSpec.maximumDimension))")
        }
        guard columns >= 1, rows >= 1, speed > 0 else {
            throw ValidationError("--columns, --rows and --speed must be positive")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let opened = try await library.open()
        let photoLibrary = opened.library
        let all = try await photoLibrary.allAssets()
        library.report(all.issues)
        let assets = limit.map { Array(all.assets.prefix($0)) } ?? all.assets
        guard !assets.isEmpty else { throw CommandFailure.usage("the library has no photos to scroll") }

        var settings = DeliveryBenchmark.Configuration()
        settings.columns = columns
        settings.visibleRows = rows
        settings.cellsPerSecond = speed
        settings.targetSize = PixelSize(parsing: size)!
        settings.contentMode = mode
        // In this process: the benchmark reads the render threads' decode times, and compares
        // delivery modes, which the renderer's isolation does not change.
        let renderer = ThumbnailRenderer(configuration: opened.configuration.imaging)
        let benchmark = DeliveryBenchmark(assets: assets, renderer: renderer, configuration: settings)
        await benchmark.prepare()

        let scenarios = deliveries.flatMap { choice in
            preheat.values.map { DeliveryScenario(deliveryMode: choice, preheat: $0, rule: $1) }
        }
        var results: [DeliveryScenarioResult] = []
        for scenario in scenarios {
            if !CommandLog.isQuiet { FileHandle.standardError.write(Data("scrolling: \(scenario)\n".utf8)) }
            results.append(try await benchmark.run(scenario))
        }
        let report = DeliveryReport(
            photos: assets.count, workers: renderer.workers,
            configuration: settings, results: results)
        if library.json { try library.printJSON(report) } else { print(report.table) }
        if let chart {
            let png = try await benchmark.chart(of: results, title: report.title)
            try Data(png).write(to: URL(fileURLWithPath: chart))
        }
    }
}
