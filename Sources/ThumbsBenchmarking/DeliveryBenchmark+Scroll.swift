import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

extension DeliveryBenchmark {
    /// The frame loop of one scenario: moves the view, starts and cancels the visible cells'
    /// requests, and moves the preheat window.
    struct Scroll {
        let benchmark: DeliveryBenchmark
        let scenario: DeliveryScenario
        let manager: CachingImageManager
        let recorder: ScrollRecorder
        private let grid: ScrollGrid
        private let clock = ContinuousClock()
        private let start: ContinuousClock.Instant
        private var window: PreheatWindow
        private var requests: [Int: Task<Void, Never>] = [:]
        private var seen = Set<Int>()
        /// Cells on screen that asked only for a cheap degraded image (or for nothing, having
        /// none) while the scroll was too fast; they ask for their final once it slows.
        private var provisional = Set<Int>()

        init(
            benchmark: DeliveryBenchmark, scenario: DeliveryScenario, manager: CachingImageManager,
            recorder: ScrollRecorder
        ) {
            self.benchmark = benchmark
            self.scenario = scenario
            self.manager = manager
            self.recorder = recorder
            grid = benchmark.grid
            window = PreheatWindow(grid: grid, rule: scenario.preheatRule)
            start = clock.now
        }

        private var configuration: Configuration { benchmark.configuration }

        /// Scrolls to the bottom, lets the last screen settle, then stops everything; returns
        /// the seconds from the first frame to the end of settling.
        mutating func run() async throws -> Double {
            let rowsPerSecond = configuration.cellsPerSecond / Double(configuration.columns)
            var frame = 0
            var settleUntil: Double?
            while true {
                let now = elapsed()
                let offset = min(grid.maximumOffset, now * rowsPerSecond)
                let visible = grid.indices(in: grid.visibleRect(at: offset))
                keepUpWithTheRenders()
                if scenario.preheat, let change = window.update(offset: offset, at: now) { preheat(change) }
                show(visible, offset: offset, at: now)
                if offset >= grid.maximumOffset {
                    let deadline = settleUntil ?? now + configuration.settleSeconds
                    settleUntil = deadline
                    if now >= deadline || recorder.allSettled(visible) { break }
                }
                frame += 1
                try await Task.sleep(until: start + .seconds(Double(frame) * configuration.frameSeconds), clock: clock)
            }
            let end = elapsed()
            await stop(at: end)
            return end
        }

        /// Cancels what is still running and waits for the render threads to drop this
        /// scenario's work, so that the next one starts on an idle machine.
        private mutating func stop(at end: Double) async {
            for (index, request) in requests {
                recorder.left(index, at: end)
                request.cancel()
            }
            manager.stopCachingForAllAssets()
            for request in requests.values { await request.value }
            requests = [:]
            while manager.rendersInFlight > 0 || manager.preheatingCount > 0 {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Requests images for cells coming into view and cancels those of cells leaving it.
        /// While the window says the scroll is too fast, a cell whose file has a cheap picture
        /// (an embedded preview) asks only for that, leaving the render threads to the cells
        /// that have nothing else to show, and asks for its final once the scroll slows. A
        /// high-quality scroll, which shows no degraded images, asks for finals throughout.
        private mutating func show(_ visible: Range<Int>, offset: Double, at now: Double) {
            recorder.scrolled(to: offset)
            for (index, request) in requests where !visible.contains(index) {
                recorder.left(index, at: now)
                request.cancel()
                requests[index] = nil
            }
            for index in provisional where !visible.contains(index) {
                recorder.left(index, at: now)
                provisional.remove(index)
            }
            let tooFast = scenario.preheat && window.isTooFast
            for index in visible where !seen.contains(index) {
                seen.insert(index)
                recorder.appeared(index, at: now)
                let cheap =
                    scenario.deliveryMode != .highQualityFormat
                    && benchmark.assets[index].properties?.hasCheapPicture == true
                guard tooFast && cheap else {
                    recorder.askedFinal(index, tooFast: tooFast)
                    requests[index] = request(index, scenario.deliveryMode)
                    continue
                }
                provisional.insert(index)
                recorder.askedPreviewOnly(index)
                requests[index] = request(index, .fastFormat, final: false)
            }
            guard !tooFast else { return }
            for index in provisional {
                recorder.askedFinal(index, tooFast: tooFast)
                requests[index]?.cancel()
                requests[index] = request(index, scenario.deliveryMode)
            }
            provisional.removeAll()
        }

        /// A cell's request; a `final` one settles the cell when it ends.
        private func request(_ index: Int, _ mode: DeliveryMode, final: Bool = true) -> Task<Void, Never> {
            let request = manager.requestImage(
                for: benchmark.assets[index], targetSize: configuration.targetSize,
                contentMode: configuration.contentMode,
                options: ImageRequestOptions(deliveryMode: mode))
            let recorder = recorder, clock = clock, start = start
            return Task {
                await withTaskCancellationHandler {
                    do {
                        for try await image in request {
                            recorder.delivered(to: index, degraded: image.isDegraded, at: (clock.now - start).seconds)
                        }
                    } catch {
                        // A failed file or a cancelled request: the cell simply keeps what it has.
                    }
                    if final { recorder.settled(index) }
                } onCancel: {
                    request.cancel()
                }
            }
        }

        private func preheat(_ change: PreheatWindow.Change) {
            recorder.preheated(change.entered, tooFast: window.isTooFast)
            let size = configuration.targetSize, mode = configuration.contentMode
            let options = ImageRequestOptions(deliveryMode: scenario.deliveryMode)
            manager.startCaching(
                assets: change.entered.map { benchmark.assets[$0] }, targetSize: size,
                contentMode: mode, options: options)
            manager.stopCaching(
                assets: change.left.map { benchmark.assets[$0] }, targetSize: size,
                contentMode: mode, options: options)
        }

        /// The fastest scroll the window keeps up with: the configuration's, or as many rows a
        /// second as the render threads render cells, by the mean time of the decodes so far
        /// (the window's default until one has ended).
        private mutating func keepUpWithTheRenders() {
            let renderer = benchmark.renderer
            guard let rate = configuration.fastestCellsPerSecond ?? renderer.decodeTime.rate(workers: renderer.workers)
            else { return }
            window.fastestRowsPerSecond = rate / Double(configuration.columns)
        }

        private func elapsed() -> Double { (clock.now - start).seconds }
    }
}
