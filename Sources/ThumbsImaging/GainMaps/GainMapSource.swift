/// What an HDR file gives a rendition's gain map, over its whole upright picture.
package enum GainMapSource: Sendable {
    /// The HDR picture's light, one value per pixel: its luminance relative to SDR white
    /// (203 cd/m² is 1), before the tone map. The gain map is its ratio to the SDR rendition's.
    case light(GainPlane)
    /// A gain map the file stores, its values as encoded (0...1), with what they mean: carried
    /// over, resized with the picture.
    case stored(GainPlane, GainMapMetadata)
}
