import CToneMap
import Glibc
import Testing

/// `thumbs_tone_map_pixel`'s 8-bit codes, which it finds among the boundaries of sRGB's rounded
/// encoding rather than by the encoding's power: each is the encoding of its light, rounded.
@Suite struct ToneMapPixelTests {
    /// sRGB's encoding of linear light, 0...1.
    private func encoded(_ linear: Float) -> Float {
        linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * powf(linear, 1 / 2.4) - 0.055
    }

    /// A grey of `luminance` cd/m² through `map`, a PQ map with BT.709 primaries whose peak is
    /// SDR white: nothing is rolled off, and its display light is `luminance` ÷ 203 cd/m².
    private func code(of luminance: Float, _ map: inout thumbs_tone_map) -> UInt8 {
        var pixel: [UInt8] = [0, 0, 0]
        let linear: [Float] = [luminance, luminance, luminance]
        thumbs_tone_map_pixel(&map, linear, &pixel)
        return pixel[0] == pixel[1] && pixel[1] == pixel[2] ? pixel[0] : 0
    }

    @Test func everyCodeIsTheRoundedEncodingOfItsLight() {
        var map = thumbs_tone_map()
        #expect(thumbs_tone_map_init(&map, Int32(THUMBS_TRANSFER_PQ), 1) == 1)
        thumbs_tone_map_set_peak(&map, 203)
        var previous: UInt8 = 0
        var misses: [String] = []
        // Steps finer than a code everywhere, and the ends.
        let steps = 50_000
        for step in 0...steps {
            let light = Float(step) / Float(steps)
            let code = code(of: light * 203, &map)
            let exact = encoded(light) * 255
            if abs(exact - Float(code)) > 0.5 + 1e-3 || code < previous {
                misses.append("light \(light): code \(code) after \(previous), encoding \(exact)")
            }
            previous = code
        }
        #expect(misses.isEmpty, "\(misses.prefix(5))")
        #expect(previous == 255)
        #expect(code(of: 0, &map) == 0)
    }
}
