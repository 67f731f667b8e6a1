import Foundation

/// scripts/make-test-hdr.py's test pattern: flat patches of PQ or HLG code values (a grey ramp,
/// then colours), with the SDR sRGB pixels a tone-mapped thumbnail of them should have, which
/// the script computes from the standards' formulas, apart from Thumbs' own code.
package struct HDRPattern: Decodable, Sendable {
    package struct Patch: Decodable, Sendable {
        /// The patch's centre.
        package let x: Int
        package let y: Int
        /// Whether the patch is part of the grey ramp.
        package let grey: Bool
        package let expected: [Int]
    }

    /// How far a picture of the pattern is from the expected pixels, at the patches' centres.
    package struct Comparison: CustomStringConvertible, Sendable {
        /// The mean absolute difference of each channel (R, G, B) over every patch, in levels.
        package let meanDifference: [Double]
        /// The largest absolute difference of any channel on the grey ramp, in levels.
        package let largestGreyDifference: Int
        /// Each patch's pixel and the one expected.
        package let patches: [(actual: [Int], expected: [Int])]

        package var description: String {
            "mean difference \(meanDifference), largest on greys \(largestGreyDifference); "
                + patches.map { "\($0.actual) for \($0.expected)" }.joined(separator: ", ")
        }
    }

    /// The side of each square patch, in pixels.
    package let patch: Int
    package let patches: [Patch]

    /// Writes the pattern to `path` as a 16-bit PNG of `transfer` ("pq" or "hlg") code values in
    /// `primaries` ("bt2020", "p3", "bt709"), with an alpha channel of `alpha` (0...65535)
    /// everywhere when given, and returns what its thumbnail's colours should be: for a PQ
    /// picture, mapped from `peak` cd/m², the peak it states (1000 when it states none).
    package static func write(
        to path: String, transfer: String, primaries: String = "bt2020", alpha: Int? = nil, peak: Int = 1000
    ) throws -> HDRPattern {
        let printed = try GeneratedMedia.script(
            "make-test-hdr.py",
            ["pattern", path, "--transfer", transfer, "--primaries", primaries, "--peak", String(peak)]
                + (alpha.map { ["--alpha", String($0)] } ?? []))
        return try JSONDecoder().decode(HDRPattern.self, from: Data(printed.utf8))
    }

    /// `pixels` (a picture of the pattern at its own size) against the expected pixels: each
    /// patch's pixel is the mean of the 8 × 8 pixels at its centre, away from the edges, where
    /// chroma subsampling and resizing blend patches.
    package func compared(with pixels: DecodedPixels) -> Comparison {
        var sums = [0, 0, 0], largestGrey = 0
        var compared: [(actual: [Int], expected: [Int])] = []
        for patch in patches {
            var actual = [0, 0, 0]
            for y in (patch.y - 4)..<(patch.y + 4) {
                for x in (patch.x - 4)..<(patch.x + 4) {
                    for band in 0..<3 {
                        actual[band] += Int(pixels.bytes[(y * pixels.width + x) * pixels.bands + band])
                    }
                }
            }
            actual = actual.map { ($0 + 32) / 64 }
            for band in 0..<3 {
                let difference = abs(actual[band] - patch.expected[band])
                sums[band] += difference
                if patch.grey { largestGrey = max(largestGrey, difference) }
            }
            compared.append((actual, patch.expected))
        }
        return Comparison(
            meanDifference: sums.map { Double($0) / Double(patches.count) }, largestGreyDifference: largestGrey,
            patches: compared)
    }
}
