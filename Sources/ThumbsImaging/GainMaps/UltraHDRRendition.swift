import CJpegShim
import Foundation
import ThumbsCore

/// A JPEG rendition made an Ultra HDR JPEG: the rendition itself, unchanged, as the primary
/// picture, and a gain map of a quarter of its area (half across, half down) from the file's
/// ``GainMapSource``, laid out by ``UltraHDRJPEG``.
package enum UltraHDRRendition {
    /// `rendition` (a JPEG of the whole picture, or its centred crop with `fill`) with the gain
    /// map `source` gives for it, encoded at `quality`.
    static func make(
        _ rendition: Thumbnail, source: GainMapSource, fill: Bool, quality: Int
    ) throws(ImagingError) -> Thumbnail {
        let size = gainMapSize(of: rendition.pixelSize)
        let plane: GainPlane, metadata: GainMapMetadata
        switch source {
        case .stored(let stored, let meaning):
            plane = stored.resampled(to: size, fill: fill)
            metadata = meaning
        case .light(let light):
            (plane, metadata) = try computed(
                light: light.resampled(to: size, fill: fill), sdr: try sdrLuminance(of: rendition, size: size))
        }
        let gainMap = try encode(plane, quality: quality)
        guard
            let bytes = UltraHDRJPEG.assemble(
                primary: rendition.bytes, gainMap: gainMap, gainMapXMP: metadata.xmp,
                gainMapISO21496: metadata.iso21496)
        else { throw .encodingFailed("the rendition is not a JPEG a gain map can be added to") }
        var made = rendition
        made.bytes = bytes
        return made
    }

    /// The size of a rendition's gain map: half across and down (the size the rendition's JPEG
    /// decodes to at its DCT scale of 1/2).
    static func gainMapSize(of rendition: PixelSize) -> PixelSize {
        PixelSize(width: max(1, rendition.width / 2), height: max(1, rendition.height / 2))
    }

    /// The gain map of `light` over `sdr` (both the gain map's size, luminance relative to SDR
    /// white): the log2 of their ratio with the format's offsets, scaled to 0...1 between its
    /// least and greatest, which the metadata states, with the light's peak as the headroom.
    package static func computed(light: GainPlane, sdr: [Float]) throws(ImagingError) -> (GainPlane, GainMapMetadata) {
        let offset = Float(GainMapMetadata.defaultOffset)
        let gains = zip(light.values, sdr).map { hdr, sdr in log2((max(hdr, 0) + offset) / (sdr + offset)) }
        // Never above SDR's own light where the picture is darker than it: a gain map whose
        // least is 0 restores the SDR picture at no headroom.
        let least = min(0, gains.min() ?? 0)
        // A picture with nothing brighter than SDR white still gets a range to encode in.
        let greatest = max(gains.max() ?? 0, least + 1.0 / 16)
        let scaled = gains.map { ($0 - least) / (greatest - least) }
        guard let plane = GainPlane(size: light.size, channels: 1, values: scaled) else {
            throw .encodingFailed("a gain map of \(light.size) does not match its picture")
        }
        // The headroom a screen needs to show it all is the picture's brightest light over SDR
        // white, not its greatest gain: a saturated colour the SDR picture shows dark has a
        // greater one, and a viewer scales the whole map by its headroom over this.
        let peak = log2(max(light.values.max() ?? 1, 1))
        let metadata = GainMapMetadata(
            minimum: [Double(least)], maximum: [Double(greatest)], gamma: [1], offsetSDR: [Double(offset)],
            offsetHDR: [Double(offset)], capacityMinimum: 0, capacityMaximum: Double(min(max(peak, 1.0 / 16), greatest))
        )
        return (plane, metadata)
    }

    /// The luminance of the rendition's picture in linear light (SDR white is 1), decoded at
    /// half its size (the JPEG's DCT scale), then made `size` if that differs.
    static func sdrLuminance(of rendition: Thumbnail, size: PixelSize) throws(ImagingError) -> [Float] {
        var picture = thumbs_jpeg_picture()
        defer { thumbs_jpeg_free(&picture) }
        let decoded = rendition.bytes.withUnsafeBufferPointer {
            thumbs_jpeg_decode_bytes($0.baseAddress, $0.count, 2, &picture)
        }
        guard decoded == Int32(THUMBS_JPEG_DECODED), let pixels = picture.pixels, [1, 3].contains(picture.bands)
        else { throw .encodingFailed("the rendition does not decode: \(String(fixedCString: picture.message) ?? "")") }
        let decodedSize = PixelSize(width: Int(picture.width), height: Int(picture.height))
        let bands = Int(picture.bands)
        let linear = (0..<256).map { Float(srgbToLinear(Double($0) / 255)) }
        var luminance = [Float](repeating: 0, count: decodedSize.pixelCount)
        for index in luminance.indices {
            let sample = pixels + index * bands
            luminance[index] =
                bands == 1
                ? linear[Int(sample[0])]
                : 0.2126 * linear[Int(sample[0])] + 0.7152 * linear[Int(sample[1])] + 0.0722 * linear[Int(sample[2])]
        }
        guard decodedSize != size else { return luminance }
        return GainPlane(size: decodedSize, channels: 1, values: luminance)!.resampled(to: size, fill: false).values
    }

    /// `plane` (values 0...1) as an 8-bit grey or RGB JPEG.
    static func encode(_ plane: GainPlane, quality: Int) throws(ImagingError) -> [UInt8] {
        let samples = plane.values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        var encoded = thumbs_jpeg_encoded()
        defer { thumbs_jpeg_encoded_free(&encoded) }
        let status = samples.withUnsafeBufferPointer {
            thumbs_jpeg_encode(
                $0.baseAddress, Int32(plane.size.width), Int32(plane.size.height), Int32(plane.channels),
                plane.size.width * plane.channels, Int32(quality), &encoded)
        }
        guard status == Int32(THUMBS_JPEG_ENCODED), let bytes = encoded.bytes else {
            throw .encodingFailed("the gain map: \(String(fixedCString: encoded.message) ?? "libjpeg failed")")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: encoded.length))
    }

    /// sRGB's decoding (IEC 61966-2-1) of a value 0...1.
    static func srgbToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
}
