import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

/// One scroll to measure: a delivery mode, with or without preheating, and by which rule.
public struct DeliveryScenario: Sendable, Hashable, Codable, CustomStringConvertible {
    public var deliveryMode: DeliveryMode
    public var preheat: Bool
    /// How the preheat window moves, when ``preheat`` is on.
    public var preheatRule: PreheatRule

    /// A scenario preheating, when `preheat`, by Apple's rule.
    public init(deliveryMode: DeliveryMode, preheat: Bool) {
        self.init(deliveryMode: deliveryMode, preheat: preheat, rule: .apple)
    }

    public init(deliveryMode: DeliveryMode, preheat: Bool, rule: PreheatRule) {
        self.deliveryMode = deliveryMode
        self.preheat = preheat
        preheatRule = rule
    }

    /// Every delivery mode, preheating by each rule and not at all.
    public static let all: [DeliveryScenario] = DeliveryMode.allCases.flatMap { mode in
        PreheatRule.allCases.map { DeliveryScenario(deliveryMode: mode, preheat: true, rule: $0) }
            + [DeliveryScenario(deliveryMode: mode, preheat: false)]
    }

    /// "off", or the rule's name.
    public var preheatName: String { preheat ? preheatRule.rawValue : "off" }

    public var description: String { "\(deliveryMode.rawValue), preheat \(preheatName)" }
}
