/// What one scroll measured.
package struct DeliveryScenarioResult: Sendable, Hashable, Codable {
    package var scenario: DeliveryScenario
    /// Cells that came into view.
    package var cellsShown: Int
    /// Cells that were on screen with no image for longer than one frame.
    package var blankCells: Int
    /// ``blankCells`` as a share of ``cellsShown``.
    package var blankShare: Double
    /// Cells that left the view (or the scroll ended) before any image reached them.
    package var neverFilled: Int
    /// Cells that showed a degraded image before their final one.
    package var degradedShown: Int
    /// From a cell's appearance to its first image, degraded or final.
    package var firstImage: LatencySummary
    /// ``firstImage`` of the cells whose file carries an embedded preview.
    package var firstImageWithPreview: LatencySummary
    /// From a cell's appearance to its final image.
    package var finalImage: LatencySummary
    /// Final renders that ran to the end.
    package var rendersFinished: Int
    /// Renders given up before their decode started, because nobody wanted them any more.
    package var rendersCancelled: Int
    /// Finished renders for cells the scroll had already carried out of view.
    package var rendersWasted: Int
    /// Renders of files that failed (broken, unsupported).
    package var rendersFailed: Int
    /// Cells that came into view while the scroll was too fast for the preheat window
    /// (``PreheatRule/followingScroll``) and asked only for a cheap preview.
    package var cellsAskingPreviewsOnly: Int
    /// Finals asked for, by cells coming into view or by preheating, while the preheat window
    /// said the scroll was too fast to keep up with.
    package var finalsAskedWhileTooFast: Int
    /// Cells of ``cellsAskingPreviewsOnly`` that left the view before the scroll ended without
    /// ever asking for their final (preheating may have asked for it before the scroll got fast).
    package var cellsPassedWithoutFinal: Int
    /// Length of the scroll, settling included.
    package var seconds: Double
}
