import CVips
import CVipsShim
import ThumbsCore
import ThumbsImaging
import ThumbsSupport

/// Decoded 8-bit sRGB pixels of an encoded image, for comparing renders.
package struct DecodedPixels {
    package let width: Int
    package let height: Int
    package let bands: Int
    package let bytes: [UInt8]
    package var size: PixelSize { PixelSize(width: width, height: height) }

    package init(_ encoded: [UInt8]) throws {
        try VipsRuntime.ensureStarted()
        let srgb = try VipsCallGate.run { () throws(ImagingError) in
            guard let opened = encoded.withUnsafeBytes({ thumbs_vips_open_buffer($0.baseAddress, $0.count) }) else {
                throw ImagingError.corrupt(VipsError.takeMessage())
            }
            let image = VipsImageHandle(opened)
            return try VipsImageHandle.make(ImagingError.corrupt) { thumbs_vips_to_srgb(image.pointer, $0) }
        }
        width = srgb.width
        height = srgb.height
        bands = srgb.bands
        bytes = try srgb.pixelBytes()
    }

    package init(_ thumbnail: Thumbnail) throws {
        try self.init(thumbnail.bytes)
    }

    private init(width: Int, height: Int, bands: Int, bytes: [UInt8]) {
        (self.width, self.height, self.bands, self.bytes) = (width, height, bands, bytes)
    }

    /// The picture mirrored: left to right when `across`, else top to bottom.
    package func mirrored(across: Bool) -> DecodedPixels {
        var mirrored = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<height {
            for x in 0..<width {
                let source = across ? y * width + (width - 1 - x) : (height - 1 - y) * width + x
                let target = (y * width + x) * bands
                mirrored[target..<(target + bands)] = bytes[(source * bands)..<(source * bands + bands)]
            }
        }
        return DecodedPixels(width: width, height: height, bands: bands, bytes: mirrored)
    }

    /// Mean absolute difference per sample (0...255) over the colour bands both images share.
    package func meanAbsoluteDifference(to other: DecodedPixels) -> Double {
        precondition(width == other.width && height == other.height, "sizes differ")
        let shared = min(3, bands, other.bands)
        var total = 0
        for pixel in 0..<(width * height) {
            for band in 0..<shared {
                total += abs(Int(bytes[pixel * bands + band]) - Int(other.bytes[pixel * other.bands + band]))
            }
        }
        return Double(total) / Double(width * height * shared)
    }

    /// The average colour of a small square around (x, y), given as fractions of the size.
    package func colour(atFractionX fx: Double, y fy: Double) -> (r: Int, g: Int, b: Int) {
        let cx = Int(Double(width) * fx), cy = Int(Double(height) * fy)
        var sums = [0, 0, 0], count = 0
        for y in max(0, cy - 2)...min(height - 1, cy + 2) {
            for x in max(0, cx - 2)...min(width - 1, cx + 2) {
                for band in 0..<3 { sums[band] += Int(bytes[(y * width + x) * bands + min(band, bands - 1)]) }
                count += 1
            }
        }
        return (sums[0] / count, sums[1] / count, sums[2] / count)
    }
}
