import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

/// One scroll to measure: a delivery mode, with or without preheating.
public struct DeliveryScenario: Sendable, Hashable, Codable, CustomStringConvertible {
    public var deliveryMode: DeliveryMode
    public var preheat: Bool

    public init(deliveryMode: DeliveryMode, preheat: Bool) {
        self.deliveryMode = deliveryMode
        self.preheat = preheat
    }

    /// Every delivery mode, each with preheating on and off.
    public static let all: [DeliveryScenario] = DeliveryMode.allCases.flatMap { mode in
        [true, false].map { DeliveryScenario(deliveryMode: mode, preheat: $0) }
    }

    public var description: String { "\(deliveryMode.rawValue), preheat \(preheat ? "on" : "off")" }
}

/// Percentiles of a set of latencies, in milliseconds.
public struct LatencySummary: Sendable, Hashable, Codable {
    public var count: Int
    public var p50: Double?
    public var p95: Double?
    public var p99: Double?
    public var max: Double?

    /// Summarises latencies given in seconds (nearest-rank percentiles).
    public init(_ seconds: [Double]) {
        let sorted = seconds.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))] * 1000
        }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted.last.map { $0 * 1000 }
    }
}

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
