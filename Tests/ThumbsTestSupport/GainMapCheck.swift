import Foundation

/// scripts/check-gain-map.py: an Ultra HDR thumbnail read apart from Thumbs' own code, the HDR
/// picture its gain map reconstructs (the format's recovery formula at full boost) measured
/// against the light of what it was made from.
package enum GainMapCheck {
    /// How far a reconstruction is from its reference, in stops, over the reference's lit
    /// parts (at least 1/64 of SDR white).
    package struct Reconstruction: Decodable, Sendable, CustomStringConvertible {
        package let meanStops: Double
        package let maxStops: Double
        /// The thumbnail's `HDRCapacityMax`.
        package let headroomStops: Double
        /// How many patches (of a pattern) or pixels (of a picture) were lit.
        package let lit: Int

        enum CodingKeys: String, CodingKey {
            case meanStops = "mean_stops", maxStops = "max_stops", headroomStops = "headroom_stops"
            case litPatches = "lit_patches", litPixels = "lit_pixels"
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            meanStops = try container.decode(Double.self, forKey: .meanStops)
            maxStops = try container.decode(Double.self, forKey: .maxStops)
            headroomStops = try container.decode(Double.self, forKey: .headroomStops)
            lit =
                try container.decodeIfPresent(Int.self, forKey: .litPatches)
                ?? container.decode(Int.self, forKey: .litPixels)
        }

        package var description: String {
            "mean \(meanStops) stops, largest \(maxStops), over \(lit) lit; headroom \(headroomStops)"
        }
    }

    /// `thumbnail` (an aspect-fit rendition of scripts/make-test-hdr.py's pattern) against the
    /// pattern's own light.
    package static func pattern(_ thumbnail: String, transfer: String, primaries: String = "bt2020") throws
        -> Reconstruction
    {
        try decoded(["pattern", thumbnail, "--transfer", transfer, "--primaries", primaries])
    }

    /// `thumbnail` against the HDR picture the Ultra HDR JPEG `reference` reconstructs.
    package static func compare(_ thumbnail: String, with reference: String) throws -> Reconstruction {
        try decoded(["compare", thumbnail, reference])
    }

    /// `thumbnail` against the HDR picture an Apple HEIC's gain map reconstructs.
    package static func compare(_ thumbnail: String, withApple heic: String) throws -> Reconstruction {
        try decoded(["apple-compare", thumbnail, heic])
    }

    /// The largest difference of the 8-bit samples of `thumbnail`'s primary picture and `sdr`;
    /// nil when their sizes differ.
    package static func primaryDifference(_ thumbnail: String, from sdr: String) throws -> Int? {
        struct Difference: Decodable {
            let max_difference: Int?
        }
        return try decoded(["primary", thumbnail, sdr], as: Difference.self).max_difference
    }

    private static func decoded<Value: Decodable>(_ arguments: [String], as type: Value.Type = Value.self) throws
        -> Value
    {
        try JSONDecoder().decode(Value.self, from: Data(try GeneratedMedia.script("check-gain-map.py", arguments).utf8))
    }
}
