import ThumbsPipeline
import ThumbsSupport

/// What happened to each cell and each render during one scroll, written from the scroll loop,
/// the requests' tasks and the render threads at once (all state behind one mutex).
final class ScrollRecorder: Sendable {
    /// One cell's life on screen, in seconds since the scroll began.
    struct Cell: Sendable {
        var appeared: Double
        var firstImage: Double?
        var finalImage: Double?
        var degradedShown = false
        var left: Double?
        /// Its request has ended: final delivered, or failed.
        var settled = false
        /// It came into view while the scroll was too fast and asked only for a cheap preview.
        var askedPreviewOnly = false
        /// It asked for its final on screen, as it came into view or once the scroll slowed.
        var askedFinal = false
    }

    private struct State {
        var cells: [Int: Cell] = [:]
        var offset = 0.0
        var rendered = 0, cancelled = 0, failed = 0, wasted = 0
        var finalsAskedWhileTooFast = 0
    }

    private let grid: ScrollGrid
    private let indexByAsset: [String: Int]
    /// Cells whose file carries an embedded preview (what opportunistic delivery can show at once).
    private let withPreview: Set<Int>
    private let state = LockedValue(State())

    init(grid: ScrollGrid, assetIDs: [String], withPreview: Set<Int> = []) {
        self.grid = grid
        self.withPreview = withPreview
        indexByAsset = Dictionary(assetIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func scrolled(to offset: Double) { state.withLock { $0.offset = offset } }

    func appeared(_ index: Int, at time: Double) { state.withLock { $0.cells[index] = Cell(appeared: time) } }

    /// A cell on screen asked only for a cheap preview, the scroll being too fast.
    func askedPreviewOnly(_ index: Int) { state.withLock { $0.cells[index]?.askedPreviewOnly = true } }

    /// A cell on screen asked for its final while the preheat window did or did not say the
    /// scroll was too fast.
    func askedFinal(_ index: Int, tooFast: Bool) {
        state.withLock { state in
            state.cells[index]?.askedFinal = true
            if tooFast { state.finalsAskedWhileTooFast += 1 }
        }
    }

    /// Cells started preheating (their finals asked for ahead of view) while the preheat window
    /// did or did not say the scroll was too fast.
    func preheated(_ indices: [Int], tooFast: Bool) {
        state.withLock { state in
            if tooFast { state.finalsAskedWhileTooFast += indices.count }
        }
    }

    func left(_ index: Int, at time: Double) {
        state.withLock { state in
            if state.cells[index]?.left == nil { state.cells[index]?.left = time }
        }
    }

    /// An image reached a cell; images that arrive after the cell left are not seen by anyone.
    func delivered(to index: Int, degraded: Bool, at time: Double) {
        state.withLock { state in
            guard var cell = state.cells[index], cell.left == nil else { return }
            if cell.firstImage == nil { cell.firstImage = time }
            if degraded { cell.degradedShown = true } else if cell.finalImage == nil { cell.finalImage = time }
            state.cells[index] = cell
        }
    }

    func settled(_ index: Int) { state.withLock { $0.cells[index]?.settled = true } }

    /// A render ended. A finished one is wasted when the scroll has already carried its cell
    /// out of view above: nobody will see it now.
    func renderEnded(_ event: RenderEvent) {
        let index = indexByAsset[event.assetID]
        state.withLock { state in
            switch event.outcome {
            case .cancelled: state.cancelled += 1
            case .failed: state.failed += 1
            case .rendered:
                state.rendered += 1
                if let index, grid.row(of: index) + 1 <= state.offset { state.wasted += 1 }
            }
        }
    }

    /// Whether every cell of `indices` has all it will get: its final image, or its failure.
    func allSettled(_ indices: Range<Int>) -> Bool {
        state.withLock { state in indices.allSatisfy { state.cells[$0]?.settled == true } }
    }

    /// The measurements, with cells still on screen closed at `end`.
    func result(_ scenario: DeliveryScenario, end: Double, frame: Double) -> DeliveryScenarioResult {
        state.withLock { state in
            let cells = Array(state.cells.values)
            let previewed = state.cells.filter { withPreview.contains($0.key) }.map(\.value)
            func firstImage(_ cells: [Cell]) -> LatencySummary {
                LatencySummary(cells.compactMap { cell in cell.firstImage.map { $0 - cell.appeared } })
            }
            let blank = cells.filter { cell in
                (cell.firstImage ?? cell.left ?? end) - cell.appeared > frame
            }
            let passedWithoutFinal = cells.filter { cell in
                cell.askedPreviewOnly && !cell.askedFinal && (cell.left ?? end) < end
            }
            return DeliveryScenarioResult(
                scenario: scenario, cellsShown: cells.count, blankCells: blank.count,
                blankShare: cells.isEmpty ? 0 : Double(blank.count) / Double(cells.count),
                neverFilled: cells.filter { $0.firstImage == nil }.count,
                degradedShown: cells.filter(\.degradedShown).count,
                firstImage: firstImage(cells), firstImageWithPreview: firstImage(previewed),
                finalImage: LatencySummary(cells.compactMap { cell in cell.finalImage.map { $0 - cell.appeared } }),
                rendersFinished: state.rendered, rendersCancelled: state.cancelled, rendersWasted: state.wasted,
                rendersFailed: state.failed, cellsAskingPreviewsOnly: cells.filter(\.askedPreviewOnly).count,
                finalsAskedWhileTooFast: state.finalsAskedWhileTooFast,
                cellsPassedWithoutFinal: passedWithoutFinal.count, seconds: end)
        }
    }
}
