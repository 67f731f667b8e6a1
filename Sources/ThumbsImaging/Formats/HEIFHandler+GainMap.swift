import CHeifShim
import CToneMap
import Glibc
import ThumbsCore
import ThumbsRendering

/// What a HEIF or AVIF file gives its renditions' gain maps: an Apple HEIC's own HDR gain map
/// (its auxiliary image, what it restores from the MakerNote's headroom), or a PQ or HLG
/// picture's light (`thumbs_heif_hdr_light`). ISO 21496-1 gain maps (`tmap` items) are not
/// exposed by Debian 12's libheif (1.15) or libavif (0.11): such a file's renditions carry none.
/// Nor does a rendition whose file's gain map or HDR picture fails to decode, when its SDR
/// picture did: the rendition is still the picture.
extension HEIFHandler {
    func gainMapSource(
        _ source: ImageSource, size: PixelSize, fill: Bool, engine: VipsRenderer
    ) throws(ImagingError) -> GainMapSource? {
        guard let meta = HEIFMetaBox(in: FileBytes(source.file, size: source.fingerprint.size)),
            let upright = meta.primaryUprightSize, upright.pixelCount <= engine.pixelLimit
        else { return nil }
        try HeifRuntime.startDecoders()
        if meta.auxiliaryTypes.contains(Self.appleGainMapType) {
            // The file read whole, and a gain map of at most the picture's size, decoded to
            // one plane and copied.
            let memory = Int(clamping: source.fingerprint.size) + upright.pixelCount * 2
            return try engine.memory.withReservation(memory) { () throws(ImagingError) -> GainMapSource? in
                try appleGainMap(source, engine: engine)
            }
        }
        guard [16, 18].contains(meta.primaryTransferCharacteristics) else { return nil }
        // libheif decodes the whole picture at its depth (two bytes a sample), as planar RGB,
        // whatever the shrink, and converts it once more.
        let memory = decoderMemory(stored: upright, bands: 3, sampleBytes: 2)
        return try engine.memory.withReservation(memory) { () throws(ImagingError) -> GainMapSource? in
            var light = thumbs_light_plane()
            defer { free(light.luminance) }
            let shrink = VipsRenderer.decodeShrink(upright, to: size, cover: fill)
            guard thumbs_heif_hdr_light(source.descriptor, nil, shrink, &light) == Int32(THUMBS_HEIF_DECODED),
                let values = light.luminance,
                let plane = GainPlane(
                    size: PixelSize(width: Int(light.width), height: Int(light.height)), channels: 1,
                    values: Array(UnsafeBufferPointer(start: values, count: Int(light.width) * Int(light.height))))
            else { return nil }
            return .light(plane.upright(orientation: Int(light.orientation)))
        }
    }

    static let appleGainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// An Apple HEIC's gain map, as Ultra HDR's: Apple's viewer restores HDR = SDR × (1 +
    /// (headroom − 1) × gain), the gain map's value made linear by BT.709's transfer undone (as
    /// Apple's "Applying Apple HDR effect to your photos" says); that ratio's log2,
    /// from 0 to the headroom's, is the Ultra HDR gain map's value, with no offsets. Nil when
    /// the MakerNote states no headroom, or states none above SDR.
    private func appleGainMap(_ source: ImageSource, engine: VipsRenderer) throws(ImagingError) -> GainMapSource? {
        var header = thumbs_heif_header()
        defer { thumbs_heif_header_free(&header) }
        guard thumbs_heif_read_header(source.descriptor, &header) == 0, let exif = header.exif,
            let headroom = AppleMakerNote(exif: Array(UnsafeBufferPointer(start: exif, count: header.exif_length)))?
                .gainMapHeadroom, headroom > 1
        else { return nil }
        var map = thumbs_heif_gain_map()
        defer { free(map.pixels) }
        guard
            thumbs_heif_apple_gain_map(source.descriptor, nil, Int64(engine.pixelLimit), &map)
                == Int32(THUMBS_HEIF_DECODED),
            let pixels = map.pixels
        else { return nil }
        let stops = log2(headroom)
        let ratios = (0..<256).map { value -> Float in
            Float(log2(1 + (headroom - 1) * Self.bt709ToLinear(Double(value) / 255)) / stops)
        }
        let count = Int(map.width) * Int(map.height)
        let values = UnsafeBufferPointer(start: pixels, count: count).map { ratios[Int($0)] }
        guard
            let plane = GainPlane(
                size: PixelSize(width: Int(map.width), height: Int(map.height)), channels: 1, values: values)
        else { return nil }
        let metadata = GainMapMetadata(
            minimum: [0], maximum: [stops], gamma: [1], offsetSDR: [0], offsetHDR: [0], capacityMinimum: 0,
            capacityMaximum: stops)
        return .stored(plane.upright(orientation: Int(map.orientation)), metadata)
    }

    /// BT.709's OETF undone: a signal value 0...1 as linear light.
    static func bt709ToLinear(_ value: Double) -> Double {
        value < 0.081 ? value / 4.5 : pow((value + 0.099) / 1.099, 1 / 0.45)
    }
}
