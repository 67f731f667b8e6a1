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
