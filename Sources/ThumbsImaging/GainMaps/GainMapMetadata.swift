import Foundation

/// What a gain map's values mean (Ultra HDR format 1.0's `hdrgm` metadata): each value, once
/// raised to 1/`gamma`, lies between `minimum` and `maximum`, the log2 of the ratio the HDR
/// picture's light has to the SDR one's (with its offsets), per channel; the picture's whole
/// boost is reached on a screen of `capacityMaximum` stops of headroom:
///
///     HDR = (SDR + offsetSDR) × 2^(lerp(minimum, maximum, value^(1/gamma)) × weight) − offsetHDR
package struct GainMapMetadata: Sendable, Equatable {
    /// Each one value, or three (red, green, blue).
    package var minimum: [Double]
    package var maximum: [Double]
    package var gamma: [Double]
    package var offsetSDR: [Double]
    package var offsetHDR: [Double]
    /// The headroom (in stops) from which on the gain map starts to apply, and at which it
    /// applies whole.
    package var capacityMinimum: Double
    package var capacityMaximum: Double

    /// The offsets Thumbs computes gain maps with, the format's defaults: they keep black's
    /// ratio finite.
    package static let defaultOffset = 1.0 / 64

    /// One value per channel: 1 or 3.
    package var channels: Int { minimum.count }

    /// The metadata of the `hdrgm` namespace in `xmp`, the format's defaults for what it leaves
    /// out; nil when it states no version, a base rendition that is the HDR one (the primary is
    /// then not the SDR picture a thumbnail shows), or values that are not numbers in range.
    package init?(xmp: XMPPacket) {
        let namespace = "http://ns.adobe.com/hdr-gain-map/1.0/"
        let prefix = xmp.prefix(of: namespace, else: "hdrgm")
        guard xmp.value(of: "Version", in: namespace, conventionally: "hdrgm") != nil,
            xmp.value(of: "BaseRenditionIsHDR", in: namespace, conventionally: "hdrgm")?.lowercased() != "true"
        else { return nil }
        func values(_ name: String, default fallback: Double) -> [Double]? {
            let found = Self.values(of: "\(prefix):\(name)", in: xmp)
            guard !found.isEmpty else { return [fallback] }
            let numbers = found.compactMap(Double.init)
            return numbers.count == found.count && [1, 3].contains(numbers.count) && numbers.allSatisfy(\.isFinite)
                ? numbers : nil
        }
        guard let minimum = values("GainMapMin", default: 0), let maximum = values("GainMapMax", default: 1),
            let gamma = values("Gamma", default: 1), let offsetSDR = values("OffsetSDR", default: Self.defaultOffset),
            let offsetHDR = values("OffsetHDR", default: Self.defaultOffset),
            let capacityMinimum = values("HDRCapacityMin", default: 0), capacityMinimum.count == 1,
            let capacityMaximum = values("HDRCapacityMax", default: 1), capacityMaximum.count == 1
        else { return nil }
        let channels = [minimum, maximum, gamma, offsetSDR, offsetHDR].map(\.count).max()!
        func spread(_ values: [Double]) -> [Double] {
            values.count == channels ? values : Array(repeating: values[0], count: channels)
        }
        self.init(
            minimum: spread(minimum), maximum: spread(maximum), gamma: spread(gamma), offsetSDR: spread(offsetSDR),
            offsetHDR: spread(offsetHDR), capacityMinimum: capacityMinimum[0], capacityMaximum: capacityMaximum[0])
        guard isInRange else { return nil }
    }

    /// Whether the values are ones a viewer can apply: every channel's least at most its
    /// greatest, gammas above 0, every value finite, and the headroom at which the map applies
    /// whole above the one where it starts, which is not below SDR's.
    var isInRange: Bool {
        let lists = [minimum, maximum, gamma, offsetSDR, offsetHDR]
        return [1, 3].contains(channels) && lists.allSatisfy { $0.count == channels }
            && lists.joined().allSatisfy(\.isFinite) && zip(minimum, maximum).allSatisfy { $0 <= $1 }
            && gamma.allSatisfy { $0 > 0 } && capacityMinimum >= 0 && capacityMaximum.isFinite
            && capacityMaximum > capacityMinimum
    }

    package init(
        minimum: [Double], maximum: [Double], gamma: [Double], offsetSDR: [Double], offsetHDR: [Double],
        capacityMinimum: Double, capacityMaximum: Double
    ) {
        self.minimum = minimum
        self.maximum = maximum
        self.gamma = gamma
        self.offsetSDR = offsetSDR
        self.offsetHDR = offsetHDR
        self.capacityMinimum = capacityMinimum
        self.capacityMaximum = capacityMaximum
    }

    /// The gain map's XMP packet: one value as an attribute, three as an ordered list.
    package var xmp: String {
        func number(_ value: Double) -> String { String(format: "%.6g", value) }
        var attributes = ["hdrgm:Version=\"1.0\"", "hdrgm:BaseRenditionIsHDR=\"False\""]
        var elements: [String] = []
        for (name, values) in [
            ("GainMapMin", minimum), ("GainMapMax", maximum), ("Gamma", gamma), ("OffsetSDR", offsetSDR),
            ("OffsetHDR", offsetHDR), ("HDRCapacityMin", [capacityMinimum]), ("HDRCapacityMax", [capacityMaximum]),
        ] {
            if values.count == 1 {
                attributes.append("hdrgm:\(name)=\"\(number(values[0]))\"")
            } else {
                let items = values.map { "<rdf:li>\(number($0))</rdf:li>" }.joined()
                elements.append("<hdrgm:\(name)><rdf:Seq>\(items)</rdf:Seq></hdrgm:\(name)>")
            }
        }
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Thumbs"><rdf:RDF \
            xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
            xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" \(attributes.joined(separator: " "))>\
            \(elements.joined())</rdf:Description></rdf:RDF></x:xmpmeta>
            """
    }

    /// The values of property `name`: an attribute's, or an element's text, or the items of the
    /// ordered list it holds.
    private static func values(of name: String, in xmp: XMPPacket) -> [String] {
        if let value = xmp.value(of: name, in: xmp.whole), !value.isEmpty { return [value] }
        guard let element = xmp.elements(named: name).first else { return [] }
        let end = xmp.elements(named: "/\(name)").first?.lowerBound ?? element.upperBound
        let list = element.lowerBound..<max(element.lowerBound, end)
        return xmp.elements(named: "rdf:li").filter { list.contains($0.lowerBound) }
            .compactMap { xmp.value(of: "rdf:li", in: $0.lowerBound..<min($0.upperBound, list.upperBound)) }
    }
}
