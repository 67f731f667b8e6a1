import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

/// What one scroll measured.
public struct DeliveryScenarioResult: Sendable, Hashable, Codable {
    public var scenario: DeliveryScenario
    /// Cells that came into view.
    public var cellsShown: Int
    /// Cells that were on screen with no image for longer than one frame.
    public var blankCells: Int
    /// ``blankCells`` as a share of ``cellsShown``.
    public var blankShare: Double
    /// Cells that left the view (or the scroll ended) before any image reached them.
    public var neverFilled: Int
    /// Cells that showed a degraded image before their final one.
    public var degradedShown: Int
    /// From a cell's appearance to its first image, degraded or final.
    public var firstImage: LatencySummary
    /// ``firstImage`` of the cells whose file carries an embedded preview.
    public var firstImageWithPreview: LatencySummary
    /// From a cell's appearance to its final image.
    public var finalImage: LatencySummary
    /// Final renders that ran to the end.
    public var rendersFinished: Int
    /// Renders given up before their decode started, because nobody wanted them any more.
    public var rendersCancelled: Int
    /// Finished renders for cells the scroll had already carried out of view.
    public var rendersWasted: Int
    /// Renders of files that failed (broken, unsupported).
    public var rendersFailed: Int
    /// Length of the scroll, settling included.
    public var seconds: Double
}
