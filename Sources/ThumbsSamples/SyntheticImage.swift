import CVips
import CVipsShim
import ThumbsCore
import ThumbsImaging

/// Photo-like images made from nothing, for tests, benchmarks and the sample library.
///
/// Each quadrant has its own colour over a smooth gradient, so any flip or rotation is visible
/// in the pixels. Images can be written pre-rotated with an EXIF orientation tag, so that they
/// *display* identically whatever the tag.
/// ```swift
/// let jpeg = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg, orientation: 6)
/// ```
public struct SyntheticImage: Sendable {
    public enum Pixels: Sendable, CaseIterable {
        case rgb, rgba, rgb16, greyAlpha16, grey, cmyk
    }

    public enum Container: String, Sendable, CaseIterable {
        case jpeg, png, webp, tiff
    }

    public var width: Int
    public var height: Int
    public var pixels: Pixels
    /// EXIF fields to write, by libvips name ("exif-ifd2-DateTimeOriginal": "2022:02:16 12:55:41").
    public var exif: [String: String]

    public init(width: Int, height: Int, pixels: Pixels = .rgb, exif: [String: String] = [:]) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.exif = exif
    }

    /// The image as it should be displayed, 8-bit RGB, row by row.
    public func uprightRGB() -> [UInt8] {
        let corners: [(Int, Int, Int)] = [(220, 40, 40), (40, 200, 60), (40, 60, 220), (230, 210, 40)]
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let quadrant = (y * 2 >= height ? 2 : 0) + (x * 2 >= width ? 1 : 0)
                let shade = (x * 24 / max(1, width)) + (y * 24 / max(1, height)) - 24
                let base = (y * width + x) * 3
                let colour = corners[quadrant]
                bytes[base] = UInt8(clamping: colour.0 + shade)
                bytes[base + 1] = UInt8(clamping: colour.1 + shade)
                bytes[base + 2] = UInt8(clamping: colour.2 + shade)
            }
        }
        return bytes
    }

    /// Encodes the image so that, once `orientation` (EXIF 1...8) is applied, it shows
    /// ``uprightRGB()``. Metadata is kept, so the tag is written.
    public func encoded(as container: Container, orientation: Int = 1, quality: Int = 92) throws(ImagingError)
        -> [UInt8]
    {
        try encoded(as: container, orientation: orientation, quality: quality, progressive: false)
    }

    /// As ``encoded(as:orientation:quality:)``; a JPEG is progressive when `progressive`.
    public func encoded(
        as container: Container, orientation: Int = 1, quality: Int = 92, progressive: Bool
    ) throws(ImagingError) -> [UInt8] {
        try VipsRuntime.ensureStarted()
        return try VipsCallGate.run { () throws(ImagingError) in
            try encodedInGate(as: container, orientation: orientation, quality: quality, progressive: progressive)
        }
    }

    private func encodedInGate(
        as container: Container, orientation: Int, quality: Int, progressive: Bool
    ) throws(ImagingError) -> [UInt8] {
        let (stored, storedSize) = Self.transform(
            uprightRGB(), size: PixelSize(width: width, height: height),
            bands: 3, orientation: Self.inverse(orientation))
        let image = try makeImage(fromRGB: stored, size: storedSize)
        if orientation != 1 {
            vips_image_set_int(image.pointer, "orientation", Int32(orientation))
        }
        for (field, value) in exif {
            vips_image_set_string(image.pointer, field, value)
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32 =
            switch container {
            case .jpeg:
                thumbs_vips_jpegsave_buffer(image.pointer, &buffer, &length, Int32(quality), 0, progressive ? 1 : 0)
            case .png: thumbs_vips_pngsave_buffer(image.pointer, &buffer, &length, 1, 0)
            case .webp: thumbs_vips_webpsave_buffer(image.pointer, &buffer, &length, Int32(quality), 0)
            case .tiff: thumbs_vips_tiffsave_buffer(image.pointer, &buffer, &length)
            }
        guard status == 0, let buffer else { throw .encodingFailed(VipsError.takeMessage()) }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Builds a libvips image in this image's pixel layout from 8-bit RGB.
    private func makeImage(fromRGB rgb: [UInt8], size: PixelSize) throws(ImagingError) -> VipsImageHandle {
        let count = size.width * size.height
        var bytes: [UInt8]
        var bands = 3
        var format = VIPS_FORMAT_UCHAR
        var interpretation = VIPS_INTERPRETATION_sRGB
        switch pixels {
        case .rgb:
            bytes = rgb
        case .rgba:
            bands = 4
            bytes = []
            bytes.reserveCapacity(count * 4)
            for i in 0..<count {
                let alpha = 128 + (i % size.width) * 127 / max(1, size.width)
                bytes += [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], UInt8(alpha)]
            }
        case .rgb16:
            format = VIPS_FORMAT_USHORT
            interpretation = VIPS_INTERPRETATION_RGB16
            bytes = []
            bytes.reserveCapacity(rgb.count * 2)
            for value in rgb {
                let wide = UInt16(value) * 257
                bytes += withUnsafeBytes(of: wide) { Array($0) }
            }
        case .greyAlpha16:
            // grey's luma and rgba's alpha ramp, widened to 16 bits.
            format = VIPS_FORMAT_USHORT
            interpretation = VIPS_INTERPRETATION_GREY16
            bands = 2
            bytes = []
            bytes.reserveCapacity(count * 4)
            for i in 0..<count {
                let luma = (Int(rgb[i * 3]) * 3 + Int(rgb[i * 3 + 1]) * 6 + Int(rgb[i * 3 + 2])) / 10
                let alpha = 128 + (i % size.width) * 127 / max(1, size.width)
                withUnsafeBytes(of: UInt16(luma) * 257) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: UInt16(alpha) * 257) { bytes.append(contentsOf: $0) }
            }
        case .grey:
            bands = 1
            interpretation = VIPS_INTERPRETATION_B_W
            bytes = []
            bytes.reserveCapacity(count)
            for i in 0..<count {
                let luma = (Int(rgb[i * 3]) * 3 + Int(rgb[i * 3 + 1]) * 6 + Int(rgb[i * 3 + 2])) / 10
                bytes.append(UInt8(luma))
            }
        case .cmyk:
            bands = 4
            interpretation = VIPS_INTERPRETATION_CMYK
            bytes = []
            bytes.reserveCapacity(count * 4)
            for i in 0..<count {
                let r = Int(rgb[i * 3]), g = Int(rgb[i * 3 + 1]), b = Int(rgb[i * 3 + 2])
                let brightest = max(r, g, b)
                let scale = max(1, brightest)
                let ink: (Int) -> UInt8 = { UInt8(255 * (brightest - $0) / scale) }
                bytes += [ink(r), ink(g), ink(b), UInt8(255 - brightest)]
            }
        }
        guard
            let raw = bytes.withUnsafeBytes({
                vips_image_new_from_memory_copy(
                    $0.baseAddress, $0.count, Int32(size.width),
                    Int32(size.height), Int32(bands), format)
            })
        else { throw .encodingFailed(VipsError.takeMessage()) }
        let plain = VipsImageHandle(raw)
        return try VipsImageHandle.make(ImagingError.encodingFailed) {
            thumbs_vips_copy_interpretation(plain.pointer, $0, Int32(interpretation.rawValue))
        }
    }

    /// The orientation that undoes `orientation`: the quarter turns swap, the rest undo themselves.
    package static func inverse(_ orientation: Int) -> Int {
        switch orientation {
        case 6: 8
        case 8: 6
        default: orientation
        }
    }

    /// What a viewer displays for `pixels` stored with EXIF `orientation`.
    package static func transform(
        _ pixels: [UInt8], size: PixelSize, bands: Int, orientation: Int
    ) -> ([UInt8], PixelSize) {
        let turned = ExifOrientation.upright(pixels, size: size, channels: bands, orientation: orientation)
        return (turned.values, turned.size)
    }
}
