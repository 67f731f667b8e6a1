import Testing
@testable import ThumbsBenchmarking
import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct ScrollRecorderTests {
    let grid = ScrollGrid(count: 40, columns: 4, visibleRows: 3)
    let scenario = DeliveryScenario(deliveryMode: .opportunistic, preheat: true)

    private func event(_ index: Int, _ outcome: RenderEvent.Outcome) -> RenderEvent {
        RenderEvent(
            assetID: "a\(index)", rendition: RenditionSpec(size: PixelSize(width: 64, height: 64)),
            priority: .preheat, outcome: outcome)
    }

    @Test func blankMeansNoImageForLongerThanAFrame() {
        let recorder = ScrollRecorder(grid: grid, assetIDs: (0..<40).map { "a\($0)" }, withPreview: [0, 2])
        recorder.appeared(0, at: 0)
        recorder.delivered(to: 0, degraded: true, at: 0.010)
        recorder.delivered(to: 0, degraded: false, at: 0.100)
        recorder.appeared(1, at: 0)
        recorder.delivered(to: 1, degraded: false, at: 0.050)
        recorder.appeared(2, at: 0)
        recorder.left(2, at: 0.5)
        recorder.delivered(to: 2, degraded: false, at: 0.6)
        let result = recorder.result(scenario, end: 1, frame: 1.0 / 60)
        #expect(result.cellsShown == 3)
        #expect(result.blankCells == 2, "cell 1 waited 50 ms, cell 2 never got an image while on screen")
        #expect(result.neverFilled == 1)
        #expect(result.degradedShown == 1)
        #expect(result.firstImage.count == 2 && result.firstImage.p50 == 10)
        #expect(result.finalImage.count == 2 && result.finalImage.max == 100)
        #expect(
            result.firstImageWithPreview.count == 1 && result.firstImageWithPreview.p50 == 10,
            "cell 2 has a preview but got no image while on screen")
    }

    @Test func rendersForCellsScrolledPastAreWasted() {
        let recorder = ScrollRecorder(grid: grid, assetIDs: (0..<40).map { "a\($0)" })
        recorder.scrolled(to: 2.5)
        recorder.renderEnded(event(4, .rendered))
        recorder.renderEnded(event(8, .rendered))
        recorder.renderEnded(event(30, .rendered))
        recorder.renderEnded(event(31, .cancelled))
        recorder.renderEnded(event(32, .failed))
        let result = recorder.result(scenario, end: 1, frame: 1.0 / 60)
        #expect(result.rendersFinished == 3)
        #expect(result.rendersWasted == 1, "row 1 is above the view at 2.5; row 2 is still partly visible")
        #expect(result.rendersCancelled == 1 && result.rendersFailed == 1)
    }

    @Test func cellsPassedWithoutAFinalAskedOnlyForPreviewsAndLeftBeforeTheEnd() {
        let recorder = ScrollRecorder(grid: grid, assetIDs: (0..<40).map { "a\($0)" })
        recorder.preheated([0, 4], tooFast: false)
        recorder.appeared(0, at: 0)
        recorder.askedFinal(0, tooFast: false)
        recorder.appeared(4, at: 0.1)
        recorder.askedPreviewOnly(4)
        recorder.appeared(8, at: 0.2)
        recorder.askedPreviewOnly(8)
        recorder.askedFinal(8, tooFast: false)
        recorder.appeared(12, at: 0.3)
        recorder.askedFinal(12, tooFast: true)
        recorder.preheated([16, 20], tooFast: true)
        recorder.appeared(16, at: 0.4)
        recorder.askedPreviewOnly(16)
        for index in [0, 4, 8, 12] { recorder.left(index, at: 0.5) }
        recorder.left(16, at: 1)
        let result = recorder.result(scenario, end: 1, frame: 1.0 / 60)
        #expect(result.cellsAskingPreviewsOnly == 3)
        #expect(result.finalsAskedWhileTooFast == 3, "cell 12 on screen, 16 and 20 preheated")
        #expect(result.cellsPassedWithoutFinal == 1, "cell 4; 8 asked for its final, 16 was on screen at the end")
    }
}
