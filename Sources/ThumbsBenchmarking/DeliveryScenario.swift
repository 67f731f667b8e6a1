import ThumbsPipeline

/// One scroll to measure: a delivery mode, with or without preheating, and by which rule.
package struct DeliveryScenario: Sendable, Hashable, Codable, CustomStringConvertible {
    package var deliveryMode: DeliveryMode
    package var preheat: Bool
    /// How the preheat window moves, when ``preheat`` is on.
    package var preheatRule: PreheatRule

    /// A scenario preheating, when `preheat`, by Apple's rule.
    package init(deliveryMode: DeliveryMode, preheat: Bool) {
        self.init(deliveryMode: deliveryMode, preheat: preheat, rule: .apple)
    }

    package init(deliveryMode: DeliveryMode, preheat: Bool, rule: PreheatRule) {
        self.deliveryMode = deliveryMode
        self.preheat = preheat
        preheatRule = rule
    }

    /// Every delivery mode, preheating by each rule and not at all.
    package static let all: [DeliveryScenario] = DeliveryMode.allCases.flatMap { mode in
        PreheatRule.allCases.map { DeliveryScenario(deliveryMode: mode, preheat: true, rule: $0) }
            + [DeliveryScenario(deliveryMode: mode, preheat: false)]
    }

    /// "off", or the rule's name.
    package var preheatName: String { preheat ? preheatRule.rawValue : "off" }

    package var description: String { "\(deliveryMode.rawValue), preheat \(preheatName)" }
}
