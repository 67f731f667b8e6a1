import CVips
import CVipsShim
import ThumbsCore
import ThumbsImaging

/// An sRGB picture drawn in memory, rectangles and text, then encoded as PNG by libvips: enough
/// for the benchmark charts, without a plotting dependency.
///
/// ```swift
/// var canvas = RasterCanvas(width: 400, height: 200)
/// canvas.fill(x: 10, y: 10, width: 120, height: 20, color: .init(red: 40, green: 90, blue: 200))
/// try canvas.write("p95 38 ms", x: 140, y: 10)
/// let png = try canvas.png()
/// ```
/// Text is laid out by libvips with Pango, so drawing and encoding belong on a render thread.
struct RasterCanvas {
    struct Color: Sendable, Hashable {
        var red: UInt8, green: UInt8, blue: UInt8
        static let black = Color(red: 0, green: 0, blue: 0)
        static let white = Color(red: 255, green: 255, blue: 255)
    }

    let width: Int
    let height: Int
    private var pixels: [UInt8]

    init(width: Int, height: Int, background: Color = .white) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = Array(repeating: 0, count: self.width * self.height * 3)
        fill(x: 0, y: 0, width: self.width, height: self.height, color: background)
    }

    /// Paints a rectangle, clipped to the canvas.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, color: Color) {
        for row in max(0, y)..<min(self.height, y + max(0, height)) {
            for column in max(0, x)..<min(self.width, x + max(0, width)) {
                let at = (row * self.width + column) * 3
                pixels[at] = color.red
                pixels[at + 1] = color.green
                pixels[at + 2] = color.blue
            }
        }
    }

    /// Writes `text` with its top left corner at (x, y); returns the width it took.
    @discardableResult
    mutating func write(_ text: String, x: Int, y: Int, font: String = "sans 11", color: Color = .black)
        throws(ImagingError) -> Int
    {
        let mask = try VipsCallGate.run { () throws(ImagingError) in
            try VipsImageHandle.make(ImagingError.encodingFailed) { thumbs_vips_text(text, font, 72, $0) }
        }
        let coverage = try mask.pixelBytes()
        let ink = [Int(color.red), Int(color.green), Int(color.blue)]
        for row in 0..<mask.height where (0..<height).contains(y + row) {
            for column in 0..<mask.width where (0..<width).contains(x + column) {
                let alpha = Int(coverage[row * mask.width + column])
                guard alpha > 0 else { continue }
                let at = ((y + row) * width + x + column) * 3
                for band in 0..<3 {
                    pixels[at + band] = UInt8((ink[band] * alpha + Int(pixels[at + band]) * (255 - alpha)) / 255)
                }
            }
        }
        return mask.width
    }

    /// The canvas as a PNG file's bytes.
    func png() throws(ImagingError) -> [UInt8] {
        try VipsCallGate.run { () throws(ImagingError) in try pngInGate() }
    }

    private func pngInGate() throws(ImagingError) -> [UInt8] {
        guard
            let raw = pixels.withUnsafeBytes({
                vips_image_new_from_memory_copy(
                    $0.baseAddress, $0.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
            })
        else { throw .encodingFailed(VipsError.takeMessage()) }
        let image = VipsImageHandle(raw)
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard thumbs_vips_pngsave_buffer(image.pointer, &buffer, &length, 6, 1) == 0, let buffer else {
            throw .encodingFailed(VipsError.takeMessage())
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
